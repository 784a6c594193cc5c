using System.Buffers;
using System.Buffers.Text;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace OrderService.Data.Orders;

/// <summary>
/// Writes every timestamp in <see cref="Timestamps.Format"/>. The default converter would write an offset
/// (+00:00) and trim trailing zeros; a fixed width keeps the text sortable and identical whichever store
/// produced it. Shared by the API's contracts and the stored documents, so both print an order alike.
/// </summary>
public sealed class UtcTimestampJsonConverter : JsonConverter<DateTimeOffset>
{
    public override DateTimeOffset Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.GetDateTimeOffset().ToUniversalTime();

    public override void Write(Utf8JsonWriter writer, DateTimeOffset value, JsonSerializerOptions options)
    {
        Span<char> text = stackalloc char[Timestamps.FormatLength];
        value.UtcDateTime.TryFormat(text, out var written, Timestamps.Format, System.Globalization.CultureInfo.InvariantCulture);
        writer.WriteStringValue(text[..written]);
    }
}

/// <summary>
/// Writes money with exactly two decimals (21.00), whatever scale the store handed back, so a client sees
/// the same text from every store. Reading stays strict: a JSON number, nothing else.
/// </summary>
public sealed class MoneyJsonConverter : JsonConverter<decimal>
{
    private static readonly StandardFormat TwoDecimals = new('F', 2);

    public override decimal Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.TokenType == JsonTokenType.Number && reader.TryGetDecimal(out var value)
            ? value
            : throw new JsonException("The JSON value could not be converted to a decimal number.");

    public override void Write(Utf8JsonWriter writer, decimal value, JsonSerializerOptions options)
    {
        Span<byte> buffer = stackalloc byte[40];
        Utf8Formatter.TryFormat(value, buffer, out var written, TwoDecimals);
        writer.WriteRawValue(buffer[..written], skipInputValidation: true);
    }
}
