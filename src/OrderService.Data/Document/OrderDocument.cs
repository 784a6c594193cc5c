using System.Text.Json;
using OrderService.Data.Orders;

namespace OrderService.Data.Document;

/// <summary>
/// The document layout's mapping, shared by every engine that stores it. One document per order, in the
/// API's JSON shape, so a read returns it almost as stored:
/// <code>
/// { "id": "0199…", "customerId": "c-1", "status": "Paid",
///   "lines": [ { "sku": "A-1", "quantity": 2, "unitPrice": 12.50 } ], "total": 25.00,
///   "version": 2, "createdAt": "2025-01-01T10:00:00.123456Z", "updatedAt": "2025-01-01T10:00:01.000001Z",
///   "events": [ { "sequence": 1, "type": "Created", "at": "…", "data": { "total": 25.00 } },
///               { "sequence": 2, "type": "Paid",    "at": "…", "data": { "paymentReference": "p-9" } } ] }
/// </code>
/// Beside it each row keeps copies of id, customer id, status, version and created-at in columns, for the
/// indexes and the conditional update; the SQL keeps the copies and the document in step in one statement.
/// <para>
/// A transition is one conditional update of one row: WHERE id, status IN (Transitions.AllowedFrom) and,
/// with If-Match, version; SET status, version + 1, updatedAt, and append the event whose sequence is the
/// new version. Nothing else decides legality: a write that matched nothing is explained afterwards by
/// <see cref="TransitionResult.Rejected"/>.
/// </para>
/// <para>
/// MongoDB would store the same document the same way, so a MongoDB store is one more folder:
/// <list type="bullet">
/// <item>Collection <c>orders</c>; <c>_id</c> = the order id (UUID, GuidRepresentation.Standard, subtype 4); the
/// other fields exactly as above. Money as Decimal128 (it keeps the two decimals). Timestamps as the same
/// fixed-width strings: a BSON date holds milliseconds only, and every store here keeps microseconds.
/// Index <c>{ customerId: 1, createdAt: -1, _id: -1 }</c> for the customer listing's keyset pages (a covered
/// lookahead projecting <c>createdAt</c> and <c>_id</c>, then the range; see <see cref="IOrderStore.ListByCustomerAsync"/>).</item>
/// <item>Idempotency keys (creates and transitions share one namespace): inside the order, e.g.
/// <c>keys: [{ key, requestHash, version }]</c> with a unique multikey index on <c>keys.key</c>, so one
/// insertOne (or one findOneAndUpdate for a transition) stores order and key atomically without a
/// multi-document transaction; see <see cref="IOrderStore.TransitionAsync"/> for the whole contract.
/// E11000 on <c>_id</c> = a retried insert (Replayed); on the key = find it and compare hashes.
/// Reads project the keys away. (The SQL engines use a table, order_document_keys, in the same write.)</item>
/// <item>Transition: <c>findOneAndUpdate(filter { _id, status: { $in: AllowedFrom }, version: expected },
/// update { $set: { status, updatedAt }, $inc: { version: 1 }, $push: { events: { sequence: expected + 1, … } } },
/// returnDocument: After)</c>. The classic operators cannot compute the event's sequence from the stored
/// version, so without If-Match use the pipeline form of the same single-document update (4.2+):
/// <c>[{ $set: { status, updatedAt, version: { $add: ["$version", 1] }, events: { $concatArrays: ["$events",
/// [{ sequence: { $add: ["$version", 1] }, type, at, data: { $literal: data } }]] } } }]</c> with the filter
/// minus <c>version</c>. Either way one document, one atomic operation, one winner. A null result: find
/// <c>{ _id }</c> projecting status and version, then NotFound or Rejected, as here.</item>
/// <item>ConfirmBeforeCommit (the declined-payment probe) needs a session transaction: startTransaction,
/// the same findOneAndUpdate in the session, await the confirmation, commit or abort (replica set needed).</item>
/// <item>Write concern per the shoot-out variants: <c>w: 1, j: false</c> (acknowledged, baseline),
/// <c>j: true</c> (journaled; the server's <c>journalCommitInterval</c> 1–500 ms is the group-commit window),
/// <c>w: "majority"</c> with <c>wtimeout</c> so a missing secondary gives an error, not a hang.</item>
/// <item>GetMany: <c>{ _id: { $in: ids } }</c> (Json mode; InList = the same query per chunk); streaming = the
/// cursor's batches, yielded as they arrive.</item>
/// </list>
/// </para>
/// </summary>
public static class OrderDocument
{
    private static readonly OrderDocumentJsonContext Json = OrderDocumentJsonContext.Default;

    /// <summary>
    /// The order exactly as a read of its document will return it: money at two decimals, timestamps at
    /// microseconds. A create answers with this, so the 201 body equals every later GET.
    /// </summary>
    public static Order Normalize(Order order)
    {
        var lines = new OrderLine[order.Lines.Count];
        for (var i = 0; i < lines.Length; i++)
        {
            lines[i] = order.Lines[i] with { UnitPrice = Money.TwoDecimals(order.Lines[i].UnitPrice) };
        }

        var events = new OrderEvent[order.Events.Count];
        for (var i = 0; i < events.Length; i++)
        {
            var e = order.Events[i];
            events[i] = e with { At = Timestamps.Truncate(e.At), Data = Normalize(e.Data) };
        }

        return order with
        {
            Lines = lines,
            Total = Money.TwoDecimals(order.Total),
            CreatedAt = Timestamps.Truncate(order.CreatedAt),
            UpdatedAt = Timestamps.Truncate(order.UpdatedAt),
            Events = events,
        };
    }

    public static string ToJson(Order order) => JsonSerializer.Serialize(order, Json.Order);

    public static Order FromJson(string document) =>
        JsonSerializer.Deserialize(document, Json.Order)
        ?? throw new InvalidDataException("A stored order document was JSON null.");

    /// <summary>The event payload as the update statement embeds it: camelCase, nulls left out.</summary>
    public static string EventDataJson(OrderEventData data) => JsonSerializer.Serialize(data, Json.OrderEventData);

    /// <summary>Ids as one JSON array parameter (SQLite json_each), in canonical lowercase form.</summary>
    public static string IdsJson(IEnumerable<Guid> ids) => JsonSerializer.Serialize(ids.ToArray(), Json.GuidArray);

    /// <summary>
    /// A create that inserted nothing met an earlier write: the same idempotency key (compare the request
    /// hashes) or the same order id (a retried insert whose first attempt committed).
    /// </summary>
    public static CreateResult Existing(NewOrder request, string? storedRequestHash, string storedDocument)
    {
        if (request.IdempotencyKey is not null && storedRequestHash is not null
            && !string.Equals(storedRequestHash, request.RequestHash, StringComparison.Ordinal))
        {
            return new CreateResult(CreateOutcome.KeyReusedWithDifferentRequest, null);
        }

        return new CreateResult(CreateOutcome.Replayed, OrderHistory.AsOf(FromJson(storedDocument), 1));
    }

    /// <summary>
    /// A transition's Idempotency-Key that is already stored: a replay of its step when it is this request
    /// (<paramref name="orderDocument"/>, read with the key, is the order now), otherwise a reuse.
    /// </summary>
    public static TransitionResult KnownKey(TransitionCommand command, string storedRequestHash, Guid storedOrderId, int storedVersion, string? orderDocument)
    {
        if (!command.IsSameRequestAs(storedRequestHash, storedOrderId))
        {
            return TransitionResult.KeyReused;
        }

        var order = orderDocument is null
            ? throw new InvalidOperationException($"Idempotency key of order {storedOrderId} is stored, but the order does not exist.")
            : FromJson(orderDocument);
        return TransitionResult.Replayed(order, storedVersion);
    }

    /// <summary>A batch's ids, each once: a repeated id is returned once, and InList chunks must not overlap.</summary>
    public static Guid[] DistinctIds(IReadOnlyCollection<Guid> ids) => ids.Distinct().ToArray();

    private static OrderEventData Normalize(OrderEventData data) =>
        data.Total is { } total ? data with { Total = Money.TwoDecimals(total) } : data;
}
