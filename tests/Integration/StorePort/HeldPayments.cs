using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Data.Payments;

namespace OrderService.Integration.Tests.StorePort;

/// <summary>
/// The payment gateway of the tests' stores: a pay started inside <see cref="WhileHoldingAsync{T}"/> is held with the
/// test's decision; any other goes to the service's own gateway, if there is one.
/// </summary>
public sealed class HeldPayments(IPaymentAuthorizer? service = null) : IPaymentAuthorizer
{
    private static readonly AsyncLocal<PendingAuthorization?> Decision = new();

    public PendingAuthorization? Authorize(Guid orderId, OrderEventData payment) => Decision.Value ?? service?.Authorize(orderId, payment);

    /// <summary>Runs <paramref name="call"/> with every pay it starts held until <paramref name="decide"/> answers.</summary>
    public static Task<T> WhileHoldingAsync<T>(PendingAuthorization decide, Func<Task<T>> call)
    {
        var outer = Decision.Value;
        Decision.Value = decide;
        try
        {
            return call();
        }
        finally
        {
            Decision.Value = outer;
        }
    }
}

public static class HeldPaymentExtensions
{
    /// <summary>The transition, with its pay held until <paramref name="decide"/> answers (true commits, false declines).</summary>
    public static Task<TransitionResult> TransitionAsync(this IOrderStore store, TransitionCommand command, PendingAuthorization decide, CancellationToken cancellationToken) =>
        HeldPayments.WhileHoldingAsync(decide, () => store.TransitionAsync(command, cancellationToken));
}
