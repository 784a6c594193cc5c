using System.Buffers;
using System.Text;
using System.Text.Json;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

/// <summary>
/// The small JSON texts the relational stores exchange with the database. The parameters are source-generated; the
/// two arrays every order row carries are read by hand, which pays on every request
/// (tests/Benchmarks/RowJsonBenchmarks.cs).
/// </summary>
public static class OrderJson
{
    private static readonly OrderJsonContext Json = OrderJsonContext.Default;

    // Records are immutable, so every event without data can share one instance.
    private static readonly OrderEventData NoData = new();

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
        string.IsNullOrEmpty(json) ? [] : ParsePooled(json, ReadLines);

    /// <summary>Reads <c>[{"sequence","type","at","data":{..}}, ..]</c>; null reads as no events.</summary>
    public static IReadOnlyList<OrderEvent> ParseEvents(string? json) =>
        string.IsNullOrEmpty(json) ? [] : ParsePooled(json, ReadEvents);

    private static List<OrderLine> ReadLines(ref Utf8JsonReader reader)
    {
        var lines = new List<OrderLine>();
        Expect(ref reader, JsonTokenType.StartArray);
        while (reader.Read() && reader.TokenType == JsonTokenType.StartObject)
        {
            var (sku, quantity, unitPrice) = ("", 0, 0m);
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                if (Is(ref reader, "sku"u8)) { sku = reader.GetString()!; }
                else if (Is(ref reader, "quantity"u8)) { quantity = reader.GetInt32(); }
                else if (Is(ref reader, "unitPrice"u8)) { unitPrice = Money.TwoDecimals(reader.GetDecimal()); }
                else { reader.Skip(); }
            }

            lines.Add(new OrderLine(sku, quantity, unitPrice));
        }

        return lines;
    }

    private static List<OrderEvent> ReadEvents(ref Utf8JsonReader reader)
    {
        var events = new List<OrderEvent>(4);
        Expect(ref reader, JsonTokenType.StartArray);
        while (reader.Read() && reader.TokenType == JsonTokenType.StartObject)
        {
            var (sequence, type, at, data) = (0, "", default(DateTimeOffset), NoData);
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                if (Is(ref reader, "sequence"u8)) { sequence = reader.GetInt32(); }
                else if (Is(ref reader, "type"u8)) { type = EventType(ref reader); }
                else if (Is(ref reader, "at"u8)) { at = reader.GetDateTimeOffset().ToUniversalTime(); }
                else if (Is(ref reader, "data"u8)) { data = ReadEventData(ref reader); }
                else { reader.Skip(); }
            }

            events.Add(new OrderEvent(sequence, type, at, data));
        }

        return events;
    }

    private static OrderEventData ReadEventData(ref Utf8JsonReader reader)
    {
        if (reader.TokenType == JsonTokenType.String)
        {
            // Some engines embed the stored text as a JSON string (Babelfish's FOR JSON).
            return ParsePooled(reader.GetString()!, static (ref Utf8JsonReader inner) =>
                inner.Read() ? ReadEventData(ref inner) : NoData);
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
            if (Is(ref reader, "paymentReference"u8)) { paymentReference = reader.GetString(); }
            else if (Is(ref reader, "carrier"u8)) { carrier = reader.GetString(); }
            else if (Is(ref reader, "trackingNumber"u8)) { trackingNumber = reader.GetString(); }
            else if (Is(ref reader, "reason"u8)) { reason = reader.GetString(); }
            else if (Is(ref reader, "total"u8))
            {
                total = reader.TokenType == JsonTokenType.Null ? null : Money.TwoDecimals(reader.GetDecimal());
            }
            else { reader.Skip(); }
        }

        return paymentReference is null && carrier is null && trackingNumber is null && reason is null && total is null
            ? NoData
            : new OrderEventData(paymentReference, carrier, trackingNumber, reason, total);
    }

    /// <summary>An event's type is one of the five status names: the literal, not a new string per event.</summary>
    private static string EventType(ref Utf8JsonReader reader) =>
        reader.ValueTextEquals("Created"u8) ? nameof(OrderStatus.Created)
        : reader.ValueTextEquals("Paid"u8) ? nameof(OrderStatus.Paid)
        : reader.ValueTextEquals("Shipped"u8) ? nameof(OrderStatus.Shipped)
        : reader.ValueTextEquals("Completed"u8) ? nameof(OrderStatus.Completed)
        : reader.ValueTextEquals("Cancelled"u8) ? nameof(OrderStatus.Cancelled)
        : reader.GetString()!;

    /// <summary>True, with the reader moved on to the value, when the property at the reader is
    /// <paramref name="name"/>; else the reader stays on the name (Skip then skips its value).</summary>
    private static bool Is(ref Utf8JsonReader reader, ReadOnlySpan<byte> name)
    {
        if (!reader.ValueTextEquals(name))
        {
            return false;
        }

        reader.Read();
        return true;
    }

    private delegate T Utf8Parser<T>(ref Utf8JsonReader reader);

    /// <summary>Parses a row's JSON text from a pooled UTF-8 copy; the parsers copy out what they keep.</summary>
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

    private static void Expect(ref Utf8JsonReader reader, JsonTokenType token)
    {
        if (!reader.Read() || reader.TokenType != token)
        {
            throw new JsonException($"Expected {token} in an aggregated order row, found {reader.TokenType}.");
        }
    }
}
