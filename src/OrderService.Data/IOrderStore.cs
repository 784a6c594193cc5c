using OrderService.Data.Orders;

namespace OrderService.Data;

/// <summary>
/// The store port: one atomic call per use case, the same contract on every store and layout. A store fault surfaces as
/// <see cref="StoreUnavailableException"/>, never as a driver's error.
/// </summary>
public interface IOrderStore
{
    /// <summary>
    /// Inserts the order with its Created event, atomically. A stored key (or id) with the same request hash answers
    /// Replayed; another body, or a key a transition stored, answers KeyReusedWithDifferentRequest. Neither writes.
    /// </summary>
    Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken);

    /// <summary>The order with its lines and events, or null when no order has that id.</summary>
    Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken);

    /// <summary>
    /// One atomic conditional write: status, version bump and event land together or not at all, and of concurrent
    /// calls on one order exactly one wins. A known key answers Replayed or KeyReusedWithDifferentRequest and writes
    /// nothing.
    /// </summary>
    Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken);

    /// <summary>The orders among <paramref name="ids"/> that exist, each once, streamed as rows arrive.</summary>
    IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken);

    /// <summary>
    /// One page of a customer's orders, newest first, strictly after <see cref="CustomerOrdersQuery.After"/>. The task
    /// completes once Next is known (null on the last page); the rows are a cold stream.
    /// </summary>
    Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken);

    /// <summary>
    /// One batch of the key clean-up: forgets at most <paramref name="limit"/> keys stored before the cutoff and
    /// returns how many rows it changed; 0 means none is left.
    /// </summary>
    Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken);

    /// <summary>Round-trips to the store; throws when it cannot be reached.</summary>
    Task CheckReadyAsync(CancellationToken cancellationToken);
}

/// <summary>An order to insert; equal request hashes mean a true retry, and never equal a transition's.</summary>
public sealed record NewOrder(Order Order, string? IdempotencyKey, string RequestHash);

public enum CreateOutcome
{
    /// <summary>The order and its Created event were inserted.</summary>
    Created,

    /// <summary>The key is stored with the same request: the order is as its creation left it.</summary>
    Replayed,

    /// <summary>The key is stored with another request body, or by a transition: nothing was written.</summary>
    KeyReusedWithDifferentRequest,
}

public sealed record CreateResult(CreateOutcome Outcome, Order? Order);

/// <summary>A requested transition. <see cref="RequestHash"/>, used only with a key, does not cover If-Match.</summary>
public sealed record TransitionCommand(
    Guid OrderId,
    OrderAction Action,
    int? ExpectedVersion,
    DateTimeOffset At,
    OrderEventData Data,
    string? IdempotencyKey = null,
    string RequestHash = "")
{
    /// <summary>True when a stored key's request is this one: the same order and the same request hash.</summary>
    public bool IsSameRequestAs(string storedRequestHash, Guid storedOrderId) =>
        storedOrderId == OrderId && string.Equals(storedRequestHash, RequestHash, StringComparison.Ordinal);
}

public enum TransitionOutcome
{
    Applied,
    NotFound,
    IllegalFromStatus,
    StaleVersion,

    /// <summary>
    /// The key was stored by this same request: nothing was written, the order is as that step left it.
    /// </summary>
    Replayed,

    /// <summary>The idempotency key was stored by another request: nothing was written.</summary>
    KeyReusedWithDifferentRequest,
}

/// <summary>The result of a transition: the order after it or its replay; on a conflict, what was found.</summary>
public sealed record TransitionResult(
    TransitionOutcome Outcome,
    Order? Order = null,
    OrderStatus? CurrentStatus = null,
    int? CurrentVersion = null)
{
    public static readonly TransitionResult NotFound = new(TransitionOutcome.NotFound);
    public static readonly TransitionResult KeyReused = new(TransitionOutcome.KeyReusedWithDifferentRequest);

    public static TransitionResult Applied(Order order) =>
        new(TransitionOutcome.Applied, order, order.Status, order.Version);

    /// <summary>A replay: <paramref name="current"/> cut back to the keyed step's <paramref name="version"/>.</summary>
    public static TransitionResult Replayed(Order current, int version)
    {
        var then = OrderHistory.AsOf(current, version);
        return new(TransitionOutcome.Replayed, then, then.Status, then.Version);
    }

    /// <summary>Explains a conditional write that matched nothing, using the pure rules.</summary>
    public static TransitionResult Rejected(OrderStatus current, int currentVersion, OrderAction action,
        int? expectedVersion)
    {
        // "Allowed" on the re-read means the write lost a race between the two statements: a stale version.
        var verdict = Transitions.Decide(current, currentVersion, action, expectedVersion);
        var outcome = verdict == TransitionVerdict.IllegalFromStatus ? TransitionOutcome.IllegalFromStatus
            : TransitionOutcome.StaleVersion;
        return new(outcome, null, current, currentVersion);
    }
}

/// <summary>A place in a customer's listing: an order's created-at and id.</summary>
public readonly record struct OrderPosition(DateTimeOffset CreatedAt, Guid Id);

/// <summary>What <see cref="IOrderStore.ListByCustomerAsync"/> lists.</summary>
public sealed record CustomerOrdersQuery(string CustomerId, OrderStatus? Status, int Limit, OrderPosition? After =
    null);

/// <summary>The positions that bound one page, both inclusive: its first (newest) and its last order.</summary>
public readonly record struct PageRange(OrderPosition Top, OrderPosition Last);

/// <summary>One page: its orders, a cold stream, and where the next page starts (null on the last page).</summary>
public sealed record OrderPage(IAsyncEnumerable<Order> Orders, OrderPosition? Next)
{
    public static readonly OrderPage Empty = new(AsyncEnumerable.Empty<Order>(), null);

    /// <summary>The page that a lookahead of up to <paramref name="limit"/> + 1 positions describes.</summary>
    public static OrderPage FromLookahead(IReadOnlyList<OrderPosition> positions, int limit, Func<PageRange,
        IAsyncEnumerable<Order>> rows)
    {
        ArgumentNullException.ThrowIfNull(positions);
        ArgumentNullException.ThrowIfNull(rows);
        ArgumentOutOfRangeException.ThrowIfLessThan(limit, 1);
        if (positions.Count == 0)
        {
            return Empty;
        }

        var last = positions[Math.Min(positions.Count, limit) - 1];
        return new OrderPage(rows(new PageRange(positions[0], last)), positions.Count > limit ? last : null);
    }
}
