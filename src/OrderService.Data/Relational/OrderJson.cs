using System.Buffers;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

/// <summary>The small JSON texts the relational stores exchange with the database.</summary>
public static class OrderJson
{
    private static readonly JsonWriterOptions WriterOptions = new() { SkipValidation = true };

    // Records are immutable, so every event without data can share one instance: one per event otherwise.
    private static readonly OrderEventData NoData = new();

    /// <summary>The lines JSON array that <see cref="SqlDialect"/> reads with LinesFromJson.</summary>
    public static string LinesParameter(IReadOnlyList<OrderLine> lines)
    {
        var writer = Scratch.Rent();
        writer.WriteStartArray();
        for (var i = 0; i < lines.Count; i++)
        {
            writer.WriteStartObject();
            writer.WriteNumber("line_no"u8, i + 1);
            writer.WriteString("sku"u8, lines[i].Sku);
            writer.WriteNumber("quantity"u8, lines[i].Quantity);
            writer.WriteNumber("unit_price"u8, lines[i].UnitPrice);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        return Scratch.Text();
    }

    /// <summary>An event's data as stored: camelCase, null fields left out.</summary>
    public static string EventData(OrderEventData data) =>
        JsonSerializer.Serialize(data, EventDataJsonContext.Default.OrderEventData);

    /// <summary>Reads <c>[{"sku","quantity","unitPrice"}, ..]</c>; null reads as no lines.</summary>
    public static IReadOnlyList<OrderLine> ParseLines(string? json)
    {
        if (string.IsNullOrEmpty(json))
        {
            return [];
        }

        return ParsePooled(json, ReadLines);
    }

    private static List<OrderLine> ReadLines(ref Utf8JsonReader reader)
    {
        var lines = new List<OrderLine>();
        Expect(ref reader, JsonTokenType.StartArray);
        while (reader.Read() && reader.TokenType == JsonTokenType.StartObject)
        {
            string sku = "";
            int quantity = 0;
            decimal unitPrice = 0;
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                if (reader.ValueTextEquals("sku"u8)) { reader.Read(); sku = reader.GetString()!; }
                else if (reader.ValueTextEquals("quantity"u8)) { reader.Read(); quantity = reader.GetInt32(); }
                else if (reader.ValueTextEquals("unitPrice"u8)) { reader.Read(); unitPrice =
                    Money.TwoDecimals(reader.GetDecimal()); }
                else { reader.Read(); reader.Skip(); }
            }

            lines.Add(new OrderLine(sku, quantity, unitPrice));
        }

        return lines;
    }

    /// <summary>Reads <c>[{"sequence","type","at","data":{..}}, ..]</c>; null reads as no events.</summary>
    public static IReadOnlyList<OrderEvent> ParseEvents(string? json)
    {
        if (string.IsNullOrEmpty(json))
        {
            return [];
        }

        return ParsePooled(json, ReadEvents);
    }

    private static List<OrderEvent> ReadEvents(ref Utf8JsonReader reader)
    {
        var events = new List<OrderEvent>(4);
        Expect(ref reader, JsonTokenType.StartArray);
        while (reader.Read() && reader.TokenType == JsonTokenType.StartObject)
        {
            int sequence = 0;
            string type = "";
            DateTimeOffset at = default;
            var data = NoData;
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                if (reader.ValueTextEquals("sequence"u8)) { reader.Read(); sequence = reader.GetInt32(); }
                else if (reader.ValueTextEquals("type"u8)) { reader.Read(); type = EventType(ref reader); }
                else if (reader.ValueTextEquals("at"u8)) { reader.Read(); at = reader.GetDateTimeOffset()
                    .ToUniversalTime(); }
                else if (reader.ValueTextEquals("data"u8)) { reader.Read(); data = ReadEventData(ref reader); }
                else { reader.Read(); reader.Skip(); }
            }

            events.Add(new OrderEvent(sequence, type, at, data));
        }

        return events;
    }

    private static OrderEventData ReadEventData(ref Utf8JsonReader reader)
    {
        if (reader.TokenType == JsonTokenType.String)
        {
            // Some engines embed the stored text as a JSON string instead of an object.
            return ParsePooled(reader.GetString()!, static (ref Utf8JsonReader inner) =>
            {
                inner.Read();
                return ReadEventData(ref inner);
            });
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            reader.Skip();
            return NoData;
        }

        string? paymentReference = null, carrier = null, trackingNumber = null, reason = null;
        decimal? total = null;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            if (reader.ValueTextEquals("paymentReference"u8)) { reader.Read(); paymentReference = reader.GetString(); }
            else if (reader.ValueTextEquals("carrier"u8)) { reader.Read(); carrier = reader.GetString(); }
            else if (reader.ValueTextEquals("trackingNumber"u8)) { reader.Read(); trackingNumber = reader.GetString(); }
            else if (reader.ValueTextEquals("reason"u8)) { reader.Read(); reason = reader.GetString(); }
            else if (reader.ValueTextEquals("total"u8)) { reader.Read(); total =
                reader.TokenType == JsonTokenType.Null ? null : Money.TwoDecimals(reader.GetDecimal()); }
            else { reader.Read(); reader.Skip(); }
        }

        return paymentReference is null && carrier is null && trackingNumber is null && reason is null && total is null
            ? NoData
            : new OrderEventData(paymentReference, carrier, trackingNumber, reason, total);
    }

    private static string EventType(ref Utf8JsonReader reader) =>
        reader.ValueTextEquals("Created"u8) ? nameof(OrderStatus.Created)
        : reader.ValueTextEquals("Paid"u8) ? nameof(OrderStatus.Paid)
        : reader.ValueTextEquals("Shipped"u8) ? nameof(OrderStatus.Shipped)
        : reader.ValueTextEquals("Completed"u8) ? nameof(OrderStatus.Completed)
        : reader.ValueTextEquals("Cancelled"u8) ? nameof(OrderStatus.Cancelled)
        : reader.GetString()!;

    private delegate T Utf8Parser<T>(ref Utf8JsonReader reader);

    private static T ParsePooled<T>(string json, Utf8Parser<T> parse)
    {
        var rented = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetMaxByteCount(json.Length));
        try
        {
            var reader = new Utf8JsonReader(rented.AsSpan(0, Encoding.UTF8.GetBytes(json, rented)));
            return parse(ref reader);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    [System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001", Justification =
        "A writer over an ArrayBufferWriter holds nothing to release; it lives as long as its thread.")]
    private sealed class Scratch
    {
        [ThreadStatic]
        private static Scratch? _current;

        private readonly ArrayBufferWriter<byte> _buffer = new(256);
        private readonly Utf8JsonWriter _writer;

        private Scratch() => _writer = new Utf8JsonWriter(_buffer, WriterOptions);

        public static Utf8JsonWriter Rent()
        {
            var scratch = _current ??= new Scratch();
            scratch._buffer.ResetWrittenCount();
            scratch._writer.Reset(scratch._buffer);
            return scratch._writer;
        }

        /// <summary>What the writer of this thread wrote since <see cref="Rent"/>, as text.</summary>
        public static string Text()
        {
            var scratch = _current!;
            scratch._writer.Flush();
            return Encoding.UTF8.GetString(scratch._buffer.WrittenSpan);
        }
    }

    private static void Expect(ref Utf8JsonReader reader, JsonTokenType token)
    {
        if (!reader.Read() || reader.TokenType != token)
        {
            throw new JsonException($"Expected {token} in an aggregated order row, found {reader.TokenType}.");
        }
    }
}

/// <summary>An event's data as the relational stores store it: camelCase, null fields left out.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, DefaultIgnoreCondition =
    JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(OrderEventData))]
internal sealed partial class EventDataJsonContext : JsonSerializerContext;
