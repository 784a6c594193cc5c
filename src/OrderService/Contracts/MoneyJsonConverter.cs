using System.Buffers;
using System.Buffers.Text;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace OrderService.Contracts;

/// <summary>
/// Writes money with exactly two decimals (21.00), whatever scale the store handed back: PostgreSQL's
/// numeric(18,2) reads as 21.00, SQLite and JSON event payloads as 21 or 21.0, and a client should see
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
