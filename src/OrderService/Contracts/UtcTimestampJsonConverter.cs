using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace OrderService.Contracts;

/// <summary>
/// Writes every timestamp as UTC with exactly six fractional digits and a 'Z' (the stores keep
/// microseconds), so clients compare and sort them as plain strings. The default converter would write
/// an offset (+00:00) and trim trailing zeros.
/// </summary>
public sealed class UtcTimestampJsonConverter : JsonConverter<DateTimeOffset>
{
    private const string Format = "yyyy-MM-dd'T'HH:mm:ss.ffffff'Z'";

    public override DateTimeOffset Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.GetDateTimeOffset().ToUniversalTime();

    public override void Write(Utf8JsonWriter writer, DateTimeOffset value, JsonSerializerOptions options)
    {
        Span<byte> buffer = stackalloc byte[32];
        value.UtcDateTime.TryFormat(buffer, out var written, Format, CultureInfo.InvariantCulture);
        writer.WriteStringValue(buffer[..written]);
    }
}
