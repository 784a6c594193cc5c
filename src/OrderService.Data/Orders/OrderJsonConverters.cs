using System.Buffers;
using System.Buffers.Text;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace OrderService.Data.Orders;

/// <summary>Writes every timestamp in <see cref="Timestamps.Format"/>.</summary>
public sealed class UtcTimestampJsonConverter : JsonConverter<DateTimeOffset>
{
    public override DateTimeOffset Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.GetDateTimeOffset().ToUniversalTime();

    public override void Write(Utf8JsonWriter writer, DateTimeOffset value, JsonSerializerOptions options)
    {
        Span<char> text = stackalloc char[Timestamps.FormatLength];
        value.UtcDateTime.TryFormat(text, out var written, Timestamps.Format,
            System.Globalization.CultureInfo.InvariantCulture);
        writer.WriteStringValue(text[..written]);
    }
}

/// <summary>Writes money with exactly two decimals, whatever scale the store handed back, so a client sees the same
/// text from every store.</summary>
public sealed class MoneyJsonConverter : JsonConverter<decimal>
{
    private static readonly StandardFormat TwoDecimals = new('F', 2);

    public override decimal Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType != JsonTokenType.Number || !reader.TryGetDecimal(out var value))
        {
            throw new JsonException("The JSON value could not be converted to a decimal number.");
        }

        // decimal parsing rounds a non-zero number below its range to 0 without a word.
        if (value == 0 && HasNonZeroMantissaDigit(
            reader.HasValueSequence ? reader.ValueSequence.ToArray() : reader.ValueSpan))
        {
            throw new JsonException("The JSON number is too small for a decimal amount (it would round to 0).");
        }

        return value;
    }

    private static bool HasNonZeroMantissaDigit(ReadOnlySpan<byte> number)
    {
        foreach (var b in number)
        {
            if (b is (byte)'e' or (byte)'E')
            {
                return false;
            }

            if (b is >= (byte)'1' and <= (byte)'9')
            {
                return true;
            }
        }

        return false;
    }

    public override void Write(Utf8JsonWriter writer, decimal value, JsonSerializerOptions options)
    {
        Span<byte> buffer = stackalloc byte[40];
        Utf8Formatter.TryFormat(value, buffer, out var written, TwoDecimals);
        writer.WriteRawValue(buffer[..written], skipInputValidation: true);
    }
}
