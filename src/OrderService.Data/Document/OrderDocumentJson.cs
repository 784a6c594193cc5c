using System.Text.Json.Serialization;
using OrderService.Data.Orders;

namespace OrderService.Data.Document;

/// <summary>The stored document is the API's JSON of <see cref="Order"/>.</summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    UseStringEnumConverter = true,
    Converters = [typeof(UtcTimestampJsonConverter), typeof(MoneyJsonConverter)])]
[JsonSerializable(typeof(Order))]
[JsonSerializable(typeof(OrderEventData))]
[JsonSerializable(typeof(Guid[]))]
public sealed partial class OrderDocumentJsonContext : JsonSerializerContext;
