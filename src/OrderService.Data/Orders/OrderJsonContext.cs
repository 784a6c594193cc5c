using System.Text.Json;
using System.Text.Json.Serialization;

namespace OrderService.Data.Orders;

/// <summary>
/// The one JSON contract of an order: the API's bodies, the document column and the relational JSON columns.
/// Strict numbers ("3" is not a quantity), a key given twice is an error, nulls are left out.
/// </summary>
[JsonSourceGenerationOptions(
    JsonSerializerDefaults.Web,
    UseStringEnumConverter = true,
    NumberHandling = JsonNumberHandling.Strict,
    AllowDuplicateProperties = false,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    Converters = [typeof(UtcTimestampJsonConverter), typeof(MoneyJsonConverter)])]
[JsonSerializable(typeof(Order))]
[JsonSerializable(typeof(Order[]))]
[JsonSerializable(typeof(OrderEventData))]
[JsonSerializable(typeof(NumberedLine[]))]
[JsonSerializable(typeof(Guid[]))]
public sealed partial class OrderJsonContext : JsonSerializerContext;

/// <summary>An order line as the relational create statement reads it from its one JSON parameter.</summary>
public sealed record NumberedLine(
    [property: JsonPropertyName("line_no")] int LineNo,
    [property: JsonPropertyName("sku")] string Sku,
    [property: JsonPropertyName("quantity")] int Quantity,
    [property: JsonPropertyName("unit_price")] decimal UnitPrice);
