using OrderService.Data.Orders;

namespace OrderService.Data;

/// <summary>
/// The store port: one atomic call per use case. Every store and layout implements it, and the
/// conformance suite runs unchanged against each. Transient faults surface as
/// <see cref="StoreUnavailableException"/> (after the resilience pipeline), never as a raw driver error.
/// </summary>
public interface IOrderStore
{
    /// <summary>
    /// Inserts the order with its Created event, or, when the idempotency key (or the order id, on a
    /// retried insert) is already known, returns the order that key created.
    /// </summary>
    Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken);

    Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken);

    /// <summary>
    /// One atomic conditional write: the status change, the version bump and the appended event land
    /// together or not at all. Concurrent calls on one order produce exactly one winner.
    /// </summary>
    Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken);

    /// <summary>The orders among <paramref name="ids"/> that exist, each once, streamed as rows arrive.</summary>
    IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken);

    /// <summary>A customer's orders, newest first, streamed as rows arrive.</summary>
    IAsyncEnumerable<Order> ListByCustomerAsync(string customerId, OrderStatus? status, int limit, CancellationToken cancellationToken);

    /// <summary>Round-trips to the store; throws when it cannot be reached.</summary>
    Task CheckReadyAsync(CancellationToken cancellationToken);
}

/// <summary>Creates or upgrades the schema, idempotently; run once at start-up.</summary>
public interface IStoreSchema
{
    Task EnsureCreatedAsync(CancellationToken cancellationToken);
}

/// <summary>
/// An order to insert. <see cref="RequestHash"/> fingerprints the request body so that a repeated
/// Idempotency-Key with a different body can be told apart (422) from a true retry.
/// </summary>
public sealed record NewOrder(Order Order, string? IdempotencyKey, string RequestHash);

public enum CreateOutcome
{
    /// <summary>Inserted now.</summary>
    Created,

    /// <summary>The key (or id) was seen before with the same request: <see cref="CreateResult.Order"/> is the first order.</summary>
    Replayed,

    /// <summary>The key was seen before with a different request body.</summary>
    KeyReusedWithDifferentRequest,
}

public sealed record CreateResult(CreateOutcome Outcome, Order? Order);

/// <summary>
/// A requested transition. <see cref="ExpectedVersion"/> carries If-Match. <see cref="ConfirmBeforeCommit"/>
/// runs inside the store's transaction after the write and before the commit: returning false rolls the
/// write back (a declined payment). It exists so the shoot-out can measure dirty reads; when null the
/// store may use its fastest single-statement path.
/// </summary>
public sealed record TransitionCommand(
    Guid OrderId,
    OrderAction Action,
    int? ExpectedVersion,
    DateTimeOffset At,
    OrderEventData Data,
    Func<CancellationToken, ValueTask<bool>>? ConfirmBeforeCommit = null);

public enum TransitionOutcome
{
    Applied,
    NotFound,
    IllegalFromStatus,
    StaleVersion,

    /// <summary><see cref="TransitionCommand.ConfirmBeforeCommit"/> returned false and the write was rolled back.</summary>
    Declined,
}

/// <summary>
/// The result of a transition. On <see cref="TransitionOutcome.Applied"/>, <see cref="Order"/> is the order
/// after the write. On a conflict, <see cref="CurrentStatus"/> and <see cref="CurrentVersion"/> say what was found.
/// </summary>
public sealed record TransitionResult(
    TransitionOutcome Outcome,
    Order? Order = null,
    OrderStatus? CurrentStatus = null,
    int? CurrentVersion = null)
{
    public static readonly TransitionResult NotFound = new(TransitionOutcome.NotFound);
    public static readonly TransitionResult Declined = new(TransitionOutcome.Declined);

    public static TransitionResult Applied(Order order) => new(TransitionOutcome.Applied, order, order.Status, order.Version);

    /// <summary>Explains a conditional write that matched nothing, using the pure rules.</summary>
    public static TransitionResult Rejected(OrderStatus current, int currentVersion, OrderAction action, int? expectedVersion)
    {
        // A write that matched nothing although the re-read says "allowed" lost a race with a
        // concurrent writer between the two statements: that is a stale version too.
        var verdict = Transitions.Decide(current, currentVersion, action, expectedVersion);
        var outcome = verdict == TransitionVerdict.IllegalFromStatus ? TransitionOutcome.IllegalFromStatus : TransitionOutcome.StaleVersion;
        return new(outcome, null, current, currentVersion);
    }
}

/// <summary>The store could not be reached, or timed out after the bounded retries. The API answers 503 with Retry-After.</summary>
/// <param name="retryAfter">When the store is worth asking again, if known (what is left of an open circuit's break).</param>
public sealed class StoreUnavailableException(string message, Exception? innerException = null, TimeSpan? retryAfter = null)
    : Exception(message, innerException)
{
    public TimeSpan? RetryAfter { get; } = retryAfter;
}
