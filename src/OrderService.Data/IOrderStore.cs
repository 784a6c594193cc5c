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
    /// <para>
    /// Idempotency keys of creates and of transitions (<see cref="TransitionCommand.IdempotencyKey"/>) share
    /// ONE namespace: a key names exactly one request. A create whose key is already stored, by a create
    /// with the same <see cref="NewOrder.RequestHash"/>, answers <see cref="CreateOutcome.Replayed"/>; by
    /// anything else (another body, or a transition) <see cref="CreateOutcome.KeyReusedWithDifferentRequest"/>.
    /// A replay answers the order as its creation left it (<see cref="OrderHistory.AsOf"/> version 1), not
    /// as it is now: the same answer as the first call.
    /// </para>
    /// </summary>
    Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken);

    Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken);

    /// <summary>
    /// One atomic conditional write: the status change, the version bump and the appended event land
    /// together or not at all. Concurrent calls on one order produce exactly one winner.
    /// <para>
    /// <b>Without a key</b> (<see cref="TransitionCommand.IdempotencyKey"/> null) nothing else happens: no
    /// key is read or written, and the write costs what it cost before keys existed.
    /// </para>
    /// <para>
    /// <b>With a key</b> the answer is as if the key were checked first:
    /// <list type="bullet">
    /// <item>key unknown: the transition runs as without a key, and when it applies, the key is stored IN
    /// THE SAME ATOMIC WRITE as the event (same statement or same transaction, in every layout, unit of
    /// work and isolation level): the key, <see cref="TransitionCommand.RequestHash"/>, the order id and
    /// the version the step produced. A write that does not apply (404, 409, declined, rolled back) stores
    /// no key: a retry of it is judged afresh.</item>
    /// <item>key stored with the same order id AND the same request hash: <see cref="TransitionOutcome.Replayed"/>,
    /// <see cref="TransitionResult.Order"/> = <see cref="OrderHistory.AsOf"/>(current order, stored version),
    /// and nothing is written, whatever the order's status and version are now and whatever If-Match says.</item>
    /// <item>key stored with anything else (another hash, another order, or by a create):
    /// <see cref="TransitionOutcome.KeyReusedWithDifferentRequest"/>, and nothing is written.</item>
    /// </list>
    /// How to get that without a read before every write (the cheap order):
    /// <list type="number">
    /// <item>Send the conditional write with the key insert inside it. If the key is already stored the
    /// write must not apply: the key insert's unique violation aborts the whole statement/transaction
    /// (PostgreSQL, SQL Server), or a <c>NOT EXISTS</c> on the key guards the update (SQLite: one writer),
    /// or the key is a filter of a single-document update (MongoDB).</item>
    /// <item>Applied: done (one more insert in the same statement is the only extra cost).</item>
    /// <item>Not applied, or aborted by the key: look the key up in a read that sees every COMMITTED write
    /// at that moment and nothing uncommitted: a new statement after the write (a fresh READ COMMITTED
    /// snapshot: the write's own snapshot predates a concurrent winner that committed while it waited on
    /// the row), never a dirty (NOLOCK / read_uncommitted) read. Found: Replayed or KeyReused as above, the
    /// order read in a view at least as new as the key (the key and its event commit together, so
    /// re-read the order if the copy at hand is older than the stored version). Not found: NotFound /
    /// IllegalFromStatus / StaleVersion exactly as without a key.</item>
    /// </list>
    /// Concurrent calls with one key (a client retrying while its first attempt is still running): at most
    /// one applies; every other one answers Replayed once the winner has committed (a loser waits on the
    /// winner's row or key lock, or retries a serialization failure, and then finds the key). None may
    /// answer from a state in which the winner is half visible.
    /// </para>
    /// </summary>
    /// <remarks>
    /// The SQL stores keep keys in one table (key PRIMARY KEY, request_hash, order_id, version, created_at;
    /// a create's row has version 1). A document store without multi-document transactions can keep them
    /// in the order itself, e.g. MongoDB: <c>keys: [{ key, requestHash, version }]</c> with a UNIQUE
    /// multikey index on <c>keys.key</c> (one namespace across orders; a create writes the first entry,
    /// version 1); a keyed transition is the usual single-document findOneAndUpdate with
    /// <c>"keys.key": { $ne: key }</c> added to the filter and <c>$push</c> of the entry (version = the new
    /// version) added to the update, so key and event land in one atomic write; E11000 on <c>keys.key</c>
    /// means another order holds the key (nothing was written); then <c>find({ "keys.key": key })</c> decides
    /// Replayed or KeyReused, as above. Reads project <c>keys</c> away.
    /// </remarks>
    Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken);

    /// <summary>The orders among <paramref name="ids"/> that exist, each once, streamed as rows arrive.</summary>
    IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken);

    /// <summary>
    /// One page of a customer's orders, newest first, for keyset paging. Listing order: CreatedAt
    /// descending, ties broken by a total order of the store's choosing that never changes for an order
    /// (PostgreSQL, SQLite, MongoDB: the id's bytes descending, i.e. its canonical text; SQL Server:
    /// insertion order, its <c>seq</c>), so an <see cref="OrderPosition"/> (CreatedAt, Id) names one
    /// place in the listing. The page is the first <see cref="CustomerOrdersQuery.Limit"/> orders that
    /// come strictly after <see cref="CustomerOrdersQuery.After"/> (from the newest when null) and match
    /// <see cref="CustomerOrdersQuery.Status"/>.
    /// <para>
    /// The task completes as soon as <see cref="OrderPage.Next"/> is known and BEFORE any order of the
    /// page is read: the API sends Next as a Link header, and headers go out before the body. Next is the
    /// position of the page's last order when at least one more matching order follows it, else null.
    /// The required way, the same on every engine (the SQL stores and MongoDB do exactly this):
    /// <list type="number">
    /// <item>Lookahead: read ONLY the positions (created-at, id) of the first Limit + 1 matching orders
    /// after After, in listing order; index-only where the engine can (the keyset index is
    /// (customer, created-at DESC, id DESC)). None: return <see cref="OrderPage.Empty"/>.</item>
    /// <item>Hand the positions to <see cref="OrderPage.FromLookahead"/>: it takes the page's range
    /// [Top = first, Last = the Limit-th (or the last found)] and Next (= Last when Limit + 1 were found).</item>
    /// <item><see cref="OrderPage.Orders"/>: the whole orders whose position lies in [Top, Last] (both
    /// inclusive) and that match the status, in listing order, with NO row limit, streamed as rows arrive.</item>
    /// </list>
    /// Why a range and not "after the cursor, limit N" for the rows: orders are inserted while a client
    /// walks (new orders are newest, so they land above the first page's Top and this walk never sees
    /// them), and an order may change status between the two reads. The range makes the rows agree with
    /// Next whatever happens in between: every position belongs to exactly one page of a walk, so no order
    /// is skipped or returned twice. At worst a page holds fewer rows than the lookahead saw (an order left
    /// the status filter), or a row the lookahead missed (one that committed between the two reads with a
    /// created-at inside the range: returned once, by this page).
    /// </para>
    /// <para>
    /// <see cref="OrderPage.Orders"/> must be a COLD, lazy stream: it opens its own connection/cursor when
    /// enumeration starts, takes its cancellation only from <c>GetAsyncEnumerator(token)</c> (never the
    /// token of this call: the resilience pipeline cancels that once the call returned), and may be
    /// enumerated again from the start (the resilience layer re-opens it when its first row fails).
    /// </para>
    /// </summary>
    Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken);

    /// <summary>
    /// The clean-up's one batch (Store:IdempotencyKeys): forgets Idempotency-Keys stored before <paramref name="storedBefore"/>,
    /// at most <paramref name="limit"/> rows (MongoDB: the keys of at most that many orders), in one short write of its own,
    /// and returns how many rows (orders) it changed. Orders and events stay. Safe while other processes run it: a row
    /// another clean-up holds is skipped or found gone, never an error, so 0 means none is left that this call could take.
    /// </summary>
    Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken);

    /// <summary>Round-trips to the store; throws when it cannot be reached.</summary>
    Task CheckReadyAsync(CancellationToken cancellationToken);
}

/// <summary>
/// An order to insert. <see cref="RequestHash"/> fingerprints the request body so that a repeated
/// Idempotency-Key with a different body can be told apart (422) from a true retry. Its canonical form
/// differs from a transition's (<see cref="TransitionCommand.RequestHash"/>), so the two never collide.
/// </summary>
public sealed record NewOrder(Order Order, string? IdempotencyKey, string RequestHash);

public enum CreateOutcome
{
    /// <summary>Inserted now.</summary>
    Created,

    /// <summary>The key (or id) was seen before with the same request: <see cref="CreateResult.Order"/> is the first order, as its creation left it (version 1).</summary>
    Replayed,

    /// <summary>The key was seen before with a different request body, or stored by a transition (one namespace).</summary>
    KeyReusedWithDifferentRequest,
}

public sealed record CreateResult(CreateOutcome Outcome, Order? Order);

/// <summary>
/// A requested transition. <see cref="ExpectedVersion"/> carries If-Match. A pay the payment gateway must decide on
/// (<see cref="Payments.IPaymentAuthorizer"/>) is held uncommitted until it has.
/// <para>
/// <see cref="IdempotencyKey"/> (1–128 printable ASCII, or null) makes the call retry-safe; see
/// <see cref="IOrderStore.TransitionAsync"/>. <see cref="RequestHash"/> (meaningless without a key)
/// fingerprints the request: the caller computes it over the order id, the action and the event data,
/// so that equal hashes mean the same step of the same order with the same payload. If-Match is left out
/// on purpose: it is a precondition on the state before the step, not part of what the step does, and a
/// replay never re-evaluates preconditions (the state has moved on by design).
/// </para>
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
    /// True when a stored key's request is this one: the same order and the same request hash (the hash
    /// already covers the order id and the action; the id is compared too, so a hash computed carelessly
    /// can never replay another order).
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
        // A write that matched nothing although the re-read says "allowed" lost a race with a
        // concurrent writer between the two statements: that is a stale version too.
        var verdict = Transitions.Decide(current, currentVersion, action, expectedVersion);
        var outcome = verdict == TransitionVerdict.IllegalFromStatus ? TransitionOutcome.IllegalFromStatus : TransitionOutcome.StaleVersion;
        return new(outcome, null, current, currentVersion);
    }
}

/// <summary>A place in a customer's listing: an order's created-at and id (see <see cref="IOrderStore.ListByCustomerAsync"/>).</summary>
public readonly record struct OrderPosition(DateTimeOffset CreatedAt, Guid Id);

/// <summary>
/// What <see cref="IOrderStore.ListByCustomerAsync"/> lists: at most <see cref="Limit"/> (1–1,000) orders of
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
