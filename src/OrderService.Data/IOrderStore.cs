using OrderService.Data.Orders;

namespace OrderService.Data;

/// <summary>The store port: one atomic call per use case, the same contract on every store and layout.</summary>
public interface IOrderStore
{
    /// <summary>Inserts the order with its Created event, atomically.</summary>
    Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken);

    /// <summary>The order with its lines and events, or null when no order has that id.</summary>
    Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken);

    /// <summary>One atomic conditional write.</summary>
    Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken);

    /// <summary>The orders among <paramref name="ids"/> that exist, each once, streamed as rows arrive.</summary>
    IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken);

    /// <summary>One page of a customer's orders, newest first, of those strictly after <see
    /// cref="CustomerOrdersQuery.After"/> that match its status.</summary>
    Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken);

    /// <summary>One batch of the key clean-up.</summary>
    Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken);

    /// <summary>Round-trips to the store; throws when it cannot be reached.</summary>
    Task CheckReadyAsync(CancellationToken cancellationToken);
}

/// <summary>An order to insert.</summary>
public sealed record NewOrder(Order Order, string? IdempotencyKey, string RequestHash);

public enum CreateOutcome
{
    /// <summary>The order and its Created event were inserted.</summary>
    Created,

    /// <summary>The key is stored with the same request.</summary>
    Replayed,

    /// <summary>The key is stored with another request body, or by a transition: nothing was written.</summary>
    KeyReusedWithDifferentRequest,
}

public sealed record CreateResult(CreateOutcome Outcome, Order? Order);

/// <summary>A requested transition.</summary>
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

    /// <summary>The payment gateway declined and the write was rolled back.</summary>
    Declined,

    /// <summary>The idempotency key was stored by this same request.</summary>
    Replayed,

    /// <summary>The idempotency key was stored by another request: nothing was written.</summary>
    KeyReusedWithDifferentRequest,
}

/// <summary>The result of a transition.</summary>
public sealed record TransitionResult(
    TransitionOutcome Outcome,
    Order? Order = null,
    OrderStatus? CurrentStatus = null,
    int? CurrentVersion = null)
{
    public static readonly TransitionResult NotFound = new(TransitionOutcome.NotFound);
    public static readonly TransitionResult Declined = new(TransitionOutcome.Declined);
    public static readonly TransitionResult KeyReused = new(TransitionOutcome.KeyReusedWithDifferentRequest);

    public static TransitionResult Applied(Order order) =>
        new(TransitionOutcome.Applied, order, order.Status, order.Version);

    /// <summary>A replay.</summary>
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
public readonly record struct PageRange(OrderPosition Top, OrderPosition Last)
{
    /// <summary>The range a lookahead of up to <paramref name="limit"/> + 1 positions describes, or null when it found
    /// none.</summary>
    public static PageRange? FromLookahead(IReadOnlyList<OrderPosition> positions, int limit, out OrderPosition? next)
    {
        ArgumentNullException.ThrowIfNull(positions);
        ArgumentOutOfRangeException.ThrowIfLessThan(limit, 1);
        next = null;
        if (positions.Count == 0)
        {
            return null;
        }

        var last = positions[Math.Min(positions.Count, limit) - 1];
        next = positions.Count > limit ? last : null;
        return new PageRange(positions[0], last);
    }
}

/// <summary>One page.</summary>
public sealed record OrderPage(IAsyncEnumerable<Order> Orders, OrderPosition? Next)
{
    public static readonly OrderPage Empty = new(AsyncEnumerable.Empty<Order>(), null);

    /// <summary>The page that a lookahead of up to <paramref name="limit"/> + 1 positions describes.</summary>
    public static OrderPage FromLookahead(IReadOnlyList<OrderPosition> positions, int limit, Func<PageRange,
        IAsyncEnumerable<Order>> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        return PageRange.FromLookahead(positions, limit, out var next) is { } range ? new OrderPage(rows(range), next)
            : Empty;
    }
}
