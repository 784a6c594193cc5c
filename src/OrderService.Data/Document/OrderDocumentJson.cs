using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using OrderService.Data.Orders;

namespace OrderService.Data.Document;

/// <summary>
/// The stored document is the API's JSON of <see cref="Order"/>: camelCase, enums as names, nulls left out
/// (only the event data has any), timestamps as <see cref="OrderDocument.TimestampFormat"/> and money with
/// two decimals. Source-generated, so no reflection runs on the hot path and trimming keeps it.
/// </summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    UseStringEnumConverter = true,
    Converters = [typeof(UtcMicrosecondTimestampConverter), typeof(MoneyConverter)])]
[JsonSerializable(typeof(Order))]
[JsonSerializable(typeof(OrderEventData))]
[JsonSerializable(typeof(Guid[]))]
public sealed partial class OrderDocumentJsonContext : JsonSerializerContext;

/// <summary>
/// Writes every timestamp as UTC with exactly six fractional digits and a 'Z'. A fixed width keeps the
/// text sortable (SQLite compares it as text) and identical whichever store produced it.
/// </summary>
public sealed class UtcMicrosecondTimestampConverter : JsonConverter<DateTimeOffset>
{
    public override DateTimeOffset Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.GetDateTimeOffset().ToUniversalTime();

    public override void Write(Utf8JsonWriter writer, DateTimeOffset value, JsonSerializerOptions options)
    {
        Span<char> text = stackalloc char[OrderDocument.TimestampLength];
        if (!value.UtcDateTime.TryFormat(text, out var written, OrderDocument.TimestampFormat, CultureInfo.InvariantCulture))
        {
            throw new FormatException($"Timestamp {value:O} does not fit {OrderDocument.TimestampFormat}.");
        }

        writer.WriteStringValue(text[..written]);
    }
}

/// <summary>
/// Money is numeric(18,2) in every layout: written with exactly two decimals (12.5 becomes 12.50), so a
/// document and a relational row give the same number text. Reading keeps the stored scale.
/// </summary>
public sealed class MoneyConverter : JsonConverter<decimal>
{
    public override decimal Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => reader.GetDecimal();

    public override void Write(Utf8JsonWriter writer, decimal value, JsonSerializerOptions options) =>
        writer.WriteNumberValue(OrderDocument.Money(value));
}
