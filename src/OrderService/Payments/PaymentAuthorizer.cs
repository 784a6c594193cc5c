using Microsoft.Extensions.Options;

namespace OrderService.Payments;

/// <summary>Decides, per pay request, whether the store must confirm before it commits (only for probe declines).</summary>
public sealed class PaymentAuthorizer
{
    private readonly string? _declinePrefix;
    private readonly TimeSpan _delay;
    private readonly TimeProvider _clock;
    private readonly Func<CancellationToken, ValueTask<bool>> _decline;

    public PaymentAuthorizer(IOptions<PaymentOptions> options, TimeProvider clock)
    {
        var value = options.Value;
        _declinePrefix = string.IsNullOrEmpty(value.DeclineReferencePrefix) ? null : value.DeclineReferencePrefix;
        _delay = TimeSpan.FromMilliseconds(value.AuthorizationDelayMilliseconds);
        _clock = clock;
        _decline = DeclineAsync;
    }

    /// <summary>
    /// Null for an ordinary payment, so the store keeps its single-statement fast path; for a probe
    /// decline, a confirmation that waits and then says no.
    /// </summary>
    public Func<CancellationToken, ValueTask<bool>>? ConfirmationFor(string? paymentReference) =>
        _declinePrefix is not null && paymentReference is not null && paymentReference.StartsWith(_declinePrefix, StringComparison.Ordinal)
            ? _decline
            : null;

    private async ValueTask<bool> DeclineAsync(CancellationToken cancellationToken)
    {
        if (_delay > TimeSpan.Zero)
        {
            await Task.Delay(_delay, _clock, cancellationToken).ConfigureAwait(false);
        }

        return false;
    }
}
