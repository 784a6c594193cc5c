using OrderService.Data.Orders;

namespace OrderService.Data;

/// <summary>
/// The store port: one atomic call per use case, the same contract on every store and layout (the conformance
/// suite holds each to it). A store fault surfaces as <see cref="StoreUnavailableException"/>, never as a driver's error.
/// </summary>
public interface IOrderStore
{
    /// <summary>
    /// Inserts the order with its Created event, atomically. When its idempotency key (or, on a retried insert, its
    /// id) is already stored, nothing is written: the same request hash answers <see cref="CreateOutcome.Replayed"/>
    /// with the order as its creation left it (version 1); another body, or a key stored by a transition, answers
    /// <see cref="CreateOutcome.KeyReusedWithDifferentRequest"/>. Creates and transitions share one key namespace.
    /// </summary>
    Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken);

    /// <summary>The order with its lines and events, or null when no order has that id.</summary>
    Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken);

    /// <summary>
    /// One atomic conditional write: the status, the version bump and the appended event land together or not at
    /// all, and of concurrent calls on one order exactly one wins. Without a key no key is read or written.
    /// <para>
    /// With <see cref="TransitionCommand.IdempotencyKey"/>: an unknown key is stored in the same atomic write as the
    /// event, only when the step applies (a 404, 409 or declined step stores none). A key stored for the same order
    /// and request hash answers <see cref="TransitionOutcome.Replayed"/> with the order as that step left it, whatever
    /// its state and If-Match now; a key stored by anything else answers
    /// <see cref="TransitionOutcome.KeyReusedWithDifferentRequest"/>. Neither writes. Of concurrent calls with one key
    /// at most one applies; the others answer Replayed once it has committed, never from a half-visible write.
    /// How each store keeps this without a read first: docs/architecture.md.
    /// </para>
    /// </summary>
    Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken);

    /// <summary>The orders among <paramref name="ids"/> that exist, each once, streamed as rows arrive.</summary>
    IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken);

    /// <summary>
    /// One page of a customer's orders, newest first (equal created-ats in an order fixed per store), of those strictly
    /// after <see cref="CustomerOrdersQuery.After"/> that match its status. The task completes once
    /// <see cref="OrderPage.Next"/> is known, before any order of the page is read; Next is null on the last page. A
    /// walk returns every order that existed when it started exactly once. Stores build the page with
    /// <see cref="OrderPage.FromLookahead"/> (docs/architecture.md).
    /// <para>
    /// <see cref="OrderPage.Orders"/> is a cold stream: it opens its own connection or cursor when enumerated, takes its
    /// cancellation only from <c>GetAsyncEnumerator(token)</c>, and may be enumerated again from the start.
    /// </para>
    /// </summary>
    Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken);

    /// <summary>
    /// One batch of the key clean-up: forgets at most <paramref name="limit"/> Idempotency-Keys stored before
    /// <paramref name="storedBefore"/> (MongoDB: the keys of at most that many orders) in one short write, and returns
    /// how many rows (orders) it changed. Orders and events stay. Safe beside other processes doing the same: 0 means
    /// none is left that this call could take.
    /// </summary>
    Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken);

    /// <summary>Round-trips to the store; throws when it cannot be reached.</summary>
    Task CheckReadyAsync(CancellationToken cancellationToken);
}

/// <summary>
/// An order to insert. <see cref="RequestHash"/> fingerprints the request body: equal hashes mean a true retry,
/// and it never equals a transition's hash.
/// </summary>
public sealed record NewOrder(Order Order, string? IdempotencyKey, string RequestHash);

public enum CreateOutcome
{
    /// <summary>The order and its Created event were inserted.</summary>
    Created,

    /// <summary>The key (or id) is stored with the same request: <see cref="CreateResult.Order"/> is the order as its creation left it.</summary>
    Replayed,

    /// <summary>The key is stored with another request body, or by a transition: nothing was written.</summary>
    KeyReusedWithDifferentRequest,
}

public sealed record CreateResult(CreateOutcome Outcome, Order? Order);

/// <summary>
/// A requested transition. <see cref="ExpectedVersion"/> carries If-Match. A pay the payment gateway must decide on
/// (<see cref="Payments.IPaymentAuthorizer"/>) is held uncommitted until it has. <see cref="IdempotencyKey"/> (or null)
/// makes the call retry-safe; <see cref="RequestHash"/>, used only with a key, covers the order id, the action and
/// the event data but not If-Match, a precondition that a replay does not check again.
/// </summary>
public sealed record TransitionCommand(
    Guid OrderId,
    OrderAction Action,
    int? ExpectedVersion,
    DateTimeOffset At,
    OrderEventData Data,
    string? IdempotencyKey = null,
    string RequestHash = "")
{
    /// <summary>
    /// True when a stored key's request is this one: the same order and the same request hash (the id is compared
    /// too, so a careless hash can never replay another order).
    /// </summary>
    public bool IsSameRequestAs(string storedRequestHash, Guid storedOrderId) =>
        storedOrderId == OrderId && string.Equals(storedRequestHash, RequestHash, StringComparison.Ordinal);
}

public enum TransitionOutcome
{
    Applied,
    NotFound,
    IllegalFromStatus,
    StaleVersion,

    /// <summary>The payment gateway declined (<see cref="Payments.IPaymentAuthorizer"/>) and the write was rolled back.</summary>
    Declined,

    /// <summary>The idempotency key was stored by this same request: nothing was written, <see cref="TransitionResult.Order"/> is the order as that step left it.</summary>
    Replayed,

    /// <summary>The idempotency key was stored by another request (another body, action or order, or a create): nothing was written.</summary>
    KeyReusedWithDifferentRequest,
}

/// <summary>
/// The result of a transition. On <see cref="TransitionOutcome.Applied"/>, <see cref="Order"/> is the order
/// after the write; on <see cref="TransitionOutcome.Replayed"/>, the order as the keyed step left it. On a
/// conflict, <see cref="CurrentStatus"/> and <see cref="CurrentVersion"/> say what was found.
/// </summary>
public sealed record TransitionResult(
    TransitionOutcome Outcome,
    Order? Order = null,
    OrderStatus? CurrentStatus = null,
    int? CurrentVersion = null)
{
    public static readonly TransitionResult NotFound = new(TransitionOutcome.NotFound);
    public static readonly TransitionResult Declined = new(TransitionOutcome.Declined);
    public static readonly TransitionResult KeyReused = new(TransitionOutcome.KeyReusedWithDifferentRequest);

    public static TransitionResult Applied(Order order) => new(TransitionOutcome.Applied, order, order.Status, order.Version);

    /// <summary>A replay: <paramref name="current"/> (at least as new as the key) cut back to <paramref name="version"/>, the version the keyed step produced.</summary>
    public static TransitionResult Replayed(Order current, int version)
    {
        var then = OrderHistory.AsOf(current, version);
        return new(TransitionOutcome.Replayed, then, then.Status, then.Version);
    }

    /// <summary>Explains a conditional write that matched nothing, using the pure rules.</summary>
    public static TransitionResult Rejected(OrderStatus current, int currentVersion, OrderAction action, int? expectedVersion)
    {
        // "Allowed" on the re-read means the write lost a race between the two statements: a stale version.
        var verdict = Transitions.Decide(current, currentVersion, action, expectedVersion);
        var outcome = verdict == TransitionVerdict.IllegalFromStatus ? TransitionOutcome.IllegalFromStatus : TransitionOutcome.StaleVersion;
        return new(outcome, null, current, currentVersion);
    }
}

/// <summary>A place in a customer's listing: an order's created-at and id (see <see cref="IOrderStore.ListByCustomerAsync"/>).</summary>
public readonly record struct OrderPosition(DateTimeOffset CreatedAt, Guid Id);

/// <summary>
/// What <see cref="IOrderStore.ListByCustomerAsync"/> lists: at most <see cref="Limit"/> orders of
/// <see cref="CustomerId"/>, only those in <see cref="Status"/> when given, strictly after <see cref="After"/>
/// (the previous page's <see cref="OrderPage.Next"/>) when given.
/// </summary>
public sealed record CustomerOrdersQuery(string CustomerId, OrderStatus? Status, int Limit, OrderPosition? After = null);

/// <summary>The positions that bound one page, both inclusive: its first (newest) and its last order.</summary>
public readonly record struct PageRange(OrderPosition Top, OrderPosition Last)
{
    /// <summary>
    /// The range a lookahead of up to <paramref name="limit"/> + 1 positions (in listing order) describes, or null when
    /// it found none; <paramref name="next"/> is the range's Last when the lookahead found more than <paramref name="limit"/>.
    /// </summary>
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

/// <summary>
/// One page: its orders (a cold stream, see <see cref="IOrderStore.ListByCustomerAsync"/>) and the
/// position the next page starts after, or null when this is the last page.
/// </summary>
public sealed record OrderPage(IAsyncEnumerable<Order> Orders, OrderPosition? Next)
{
    public static readonly OrderPage Empty = new(AsyncEnumerable.Empty<Order>(), null);

    /// <summary>
    /// The page that a lookahead of up to <paramref name="limit"/> + 1 positions (in listing order) describes:
    /// <paramref name="rows"/> streams the orders in its <see cref="PageRange"/>; Next is the range's Last
    /// when the lookahead found more than <paramref name="limit"/>.
    /// </summary>
    public static OrderPage FromLookahead(IReadOnlyList<OrderPosition> positions, int limit, Func<PageRange, IAsyncEnumerable<Order>> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        return PageRange.FromLookahead(positions, limit, out var next) is { } range ? new OrderPage(rows(range), next) : Empty;
    }
}
