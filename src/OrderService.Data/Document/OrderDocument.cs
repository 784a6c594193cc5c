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
/// MongoDB stores the same shape natively (src/OrderService.Data.MongoDb: OrderBson for the BSON layout, with
/// instants as Int64 microseconds; OrderDefinitions for the findOneAndUpdate of a transition and the keyset
/// listing; the Idempotency-Keys of creates and transitions inside the order, under one unique multikey index).
/// It reuses <see cref="Normalize(Order)"/>, <see cref="Existing(NewOrder, string?, Order)"/> and <see cref="DistinctIds"/>.
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
    public static CreateResult Existing(NewOrder request, string? storedRequestHash, string storedDocument) =>
        IsKeyReusedWithDifferentRequest(request, storedRequestHash)
            ? new CreateResult(CreateOutcome.KeyReusedWithDifferentRequest, null)
            : new CreateResult(CreateOutcome.Replayed, OrderHistory.AsOf(FromJson(storedDocument), 1));

    /// <summary>The same decision for a store that reads the earlier order as an <see cref="Order"/> (MongoDB).</summary>
    public static CreateResult Existing(NewOrder request, string? storedRequestHash, Order stored) =>
        IsKeyReusedWithDifferentRequest(request, storedRequestHash)
            ? new CreateResult(CreateOutcome.KeyReusedWithDifferentRequest, null)
            : new CreateResult(CreateOutcome.Replayed, OrderHistory.AsOf(stored, 1));

    private static bool IsKeyReusedWithDifferentRequest(NewOrder request, string? storedRequestHash) =>
        request.IdempotencyKey is not null && storedRequestHash is not null
        && !string.Equals(storedRequestHash, request.RequestHash, StringComparison.Ordinal);

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
