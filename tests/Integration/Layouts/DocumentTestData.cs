using System.Globalization;
using System.Text.Json.Nodes;
using OrderService.Data;
using OrderService.Data.Orders;

namespace OrderService.Integration.Tests.Layouts;

/// <summary>Orders and commands as the service would build them, with timestamps a test controls.</summary>
internal static class DocumentTestData
{
    public static readonly DateTimeOffset Start = new(2025, 3, 1, 9, 30, 0, TimeSpan.Zero);

    public static NewOrder NewOrder(string customerId = "c-doc", DateTimeOffset? at = null, string? idempotencyKey = null, string requestHash = "hash-1", Guid? id = null)
    {
        // Scale 1 and 0 on purpose: the document stores money with two decimals whatever came in.
        IReadOnlyList<OrderLine> lines = [new("SKU-1", 2, 12.5m), new("SKU-2", 1, 3m)];
        var order = Transitions.Create(id ?? Guid.CreateVersion7(), customerId, lines, Timestamps.Truncate(at ?? Start.AddTicks(1_234_567)));
        return new NewOrder(order, idempotencyKey, requestHash);
    }

    public static TransitionCommand Command(Guid id, OrderAction action, int? expectedVersion = null, int step = 1) =>
        new(id, action, expectedVersion, Start.AddSeconds(step).AddTicks(10 * step), action switch
        {
            OrderAction.Pay => new OrderEventData(PaymentReference: "pay-42"),
            OrderAction.Ship => new OrderEventData(Carrier: "DHL", TrackingNumber: "TRK-1"),
            OrderAction.Cancel => new OrderEventData(Reason: "changed mind"),
            _ => new OrderEventData(),
        });

    /// <summary>The next step of the happy path, or null when the order is done.</summary>
    public static OrderAction? NextAction(OrderStatus status) => status switch
    {
        OrderStatus.Created => OrderAction.Pay,
        OrderStatus.Paid => OrderAction.Ship,
        OrderStatus.Shipped => OrderAction.Complete,
        _ => null,
    };
}

/// <summary>
/// A canonical form of a JSON text: keys sorted, whitespace gone, numbers normalized (12.50 and 12.5 are
/// one number). Two stores agree on an order when their canonical forms are equal.
/// </summary>
internal static class CanonicalJson
{
    public static string From(string json) => Canonical(JsonNode.Parse(json))?.ToJsonString() ?? "null";

    private static JsonNode? Canonical(JsonNode? node) => node switch
    {
        JsonObject obj => new JsonObject(obj.OrderBy(p => p.Key, StringComparer.Ordinal)
            .Select(p => KeyValuePair.Create(p.Key, Canonical(p.Value)))),
        JsonArray array => new JsonArray(array.Select(Canonical).ToArray()),
        JsonValue value when value.GetValueKind() == System.Text.Json.JsonValueKind.Number =>
            JsonValue.Create(decimal.Parse(value.ToJsonString(), NumberStyles.Float, CultureInfo.InvariantCulture) / 1.000000000000000000000000000000000m),
        JsonValue value => JsonNode.Parse(value.ToJsonString()),
        null => null,
        _ => throw new InvalidOperationException(),
    };
}
