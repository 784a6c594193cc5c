using System.Text.Json;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

/// <summary>The small JSON texts the relational stores exchange with the database.</summary>
public static class OrderJson
{
    private static readonly OrderJsonContext Json = OrderJsonContext.Default;

    /// <summary>The lines JSON array that <see cref="SqlDialect"/> reads with LinesFromJson.</summary>
    public static string LinesParameter(IReadOnlyList<OrderLine> lines)
    {
        var numbered = new NumberedLine[lines.Count];
        for (var i = 0; i < numbered.Length; i++)
        {
            numbered[i] = new NumberedLine(i + 1, lines[i].Sku, lines[i].Quantity, lines[i].UnitPrice);
        }

        return JsonSerializer.Serialize(numbered, Json.NumberedLineArray);
    }

    /// <summary>An event's data as stored: camelCase, null fields left out.</summary>
    public static string EventData(OrderEventData data) => JsonSerializer.Serialize(data, Json.OrderEventData);

    /// <summary>Reads <c>[{"sku","quantity","unitPrice"}, ..]</c>; null reads as no lines.</summary>
    public static IReadOnlyList<OrderLine> ParseLines(string? json) =>
        string.IsNullOrEmpty(json) ? [] : JsonSerializer.Deserialize(json, Json.IReadOnlyListOrderLine) ?? [];

    /// <summary>Reads <c>[{"sequence","type","at","data":{..}}, ..]</c>; null reads as no events.</summary>
    public static IReadOnlyList<OrderEvent> ParseEvents(string? json) => string.IsNullOrEmpty(json) ? []
        : Array.ConvertAll(JsonSerializer.Deserialize(json, Json.StoredEventArray) ?? [], e => e.ToEvent());
}
