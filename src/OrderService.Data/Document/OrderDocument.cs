using System.Text.Json;
using OrderService.Data.Orders;

namespace OrderService.Data.Document;

/// <summary>The document layout's mapping, shared by every engine that stores it.</summary>
public static class OrderDocument
{
    private static readonly OrderJsonContext Json = OrderJsonContext.Default;

    /// <summary>The order as a read of its document returns it, so a 201 body equals every later GET.</summary>
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

    /// <summary>Ids as one JSON array parameter (SQLite json_each), in canonical lowercase form.</summary>
    public static string IdsJson(IEnumerable<Guid> ids) => JsonSerializer.Serialize(ids.ToArray(), Json.GuidArray);

    /// <summary>A create that inserted nothing met an earlier write.</summary>
    public static CreateResult Existing(NewOrder request, string? storedRequestHash, Order stored) =>
        request.IdempotencyKey is not null && storedRequestHash is not null
        && !string.Equals(storedRequestHash, request.RequestHash, StringComparison.Ordinal)
            ? new CreateResult(CreateOutcome.KeyReusedWithDifferentRequest, null)
            : new CreateResult(CreateOutcome.Replayed, OrderHistory.AsOf(stored, 1));

    /// <summary>A transition's Idempotency-Key that is already stored.</summary>
    public static TransitionResult KnownKey(TransitionCommand command, string storedRequestHash, Guid storedOrderId,
        int storedVersion, string? orderDocument)
    {
        if (!command.IsSameRequestAs(storedRequestHash, storedOrderId))
        {
            return TransitionResult.KeyReused;
        }

        var order = orderDocument is null
            ? throw new InvalidOperationException(
                $"Idempotency key of order {storedOrderId} is stored, but the order does not exist.")
            : FromJson(orderDocument);
        return TransitionResult.Replayed(order, storedVersion);
    }

    public static Guid[] DistinctIds(IReadOnlyCollection<Guid> ids) => ids.Distinct().ToArray();

    private static OrderEventData Normalize(OrderEventData data) =>
        data.Total is { } total ? data with { Total = Money.TwoDecimals(total) } : data;
}
