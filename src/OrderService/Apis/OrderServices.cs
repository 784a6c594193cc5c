using OrderService.Data;
using OrderService.Data.Orders;

namespace OrderService.Apis;

/// <summary>What the order handlers take from the container: one singleton, so binding it costs a lookup and no
/// allocation.</summary>
public sealed class OrderServices(IOrderStore store, TimeProvider clock)
{
    public IOrderStore Store { get; } = store;

    public TimeProvider Clock { get; } = clock;

    /// <summary>One atomic call on the store: the event is stamped here, so every store records the same
    /// instant.</summary>
    /// <remarks>With an Idempotency-Key the request hash covers the order id, the action and the event data (see <see
    /// cref="Validation.RequestFingerprint.OfTransition"/>).</remarks>
    public Task<TransitionResult> TransitionAsync(
        Guid id,
        OrderAction action,
        int? expectedVersion,
        OrderEventData data,
        string? idempotencyKey,
        CancellationToken cancellationToken) =>
        Store.TransitionAsync(
            new TransitionCommand(id, action, expectedVersion, Timestamps.Now(Clock), data)
            {
                IdempotencyKey = idempotencyKey,
                RequestHash = idempotencyKey is null ? string.Empty
                    : Validation.RequestFingerprint.OfTransition(id, action, data),
            },
            cancellationToken);
}
