using Microsoft.Extensions.Options;
using OrderService.Data.Orders;
using OrderService.Data.Payments;

namespace OrderService.Payments;

/// <summary>
/// A stand-in gateway: approves every pay, but holds then declines one whose reference has the decline prefix.
/// </summary>
public sealed class SimulatedPaymentGateway : IPaymentAuthorizer
{
    private readonly string? _declinePrefix;
    private readonly TimeSpan _delay;
    private readonly TimeProvider _clock;
    private readonly PendingAuthorization _decline;

    public SimulatedPaymentGateway(IOptions<PaymentOptions> options, TimeProvider clock)
    {
        var value = options.Value;
        _declinePrefix = string.IsNullOrEmpty(value.DeclineReferencePrefix) ? null : value.DeclineReferencePrefix;
        _delay = TimeSpan.FromMilliseconds(value.AuthorizationDelayMilliseconds);
        _clock = clock;
        _decline = DeclineAsync;
    }

    public PendingAuthorization? Authorize(Guid orderId, OrderEventData payment) =>
        _declinePrefix is not null && payment.PaymentReference is { } reference
            && reference.StartsWith(_declinePrefix, StringComparison.Ordinal)
            ? _decline
            : null;

    private async ValueTask<bool> DeclineAsync(CancellationToken cancellationToken)
    {
        if (_delay > TimeSpan.Zero)
        {
            await Task.Delay(_delay, _clock, cancellationToken);
        }

        return false;
    }
}
