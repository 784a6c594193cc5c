using System.Buffers;
using System.Buffers.Binary;
using System.Buffers.Text;
using System.Globalization;
using System.Text.Json;
using MongoDB.Bson;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>A stored order written as the API's JSON straight from its BSON bytes, with no Order between.</summary>
public static class OrderBsonJson
{
    private static readonly StandardFormat TwoDecimals = new('F', 2);

    /// <summary>Writes one stored order (a whole BSON document) as one JSON object.</summary>
    public static void WriteOrder(ReadOnlySpan<byte> document, Utf8JsonWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        Field id = default, customerId = default, status = default, lines = default, total = default, version = default,
            createdAt = default, updatedAt = default, events = default;
        var elements = new BsonElements(document);
        while (elements.MoveNext())
        {
            var name = elements.Name;
            if (name.SequenceEqual("_id"u8)) id = new(elements);
            else if (name.SequenceEqual("customerId"u8)) customerId = new(elements);
            else if (name.SequenceEqual("status"u8)) status = new(elements);
            else if (name.SequenceEqual("lines"u8)) lines = new(elements);
            else if (name.SequenceEqual("total"u8)) total = new(elements);
            else if (name.SequenceEqual("version"u8)) version = new(elements);
            else if (name.SequenceEqual("createdAt"u8)) createdAt = new(elements);
            else if (name.SequenceEqual("updatedAt"u8)) updatedAt = new(elements);
            else if (name.SequenceEqual("events"u8)) events = new(elements);
        }

        writer.WriteStartObject();
        writer.WriteString("id"u8, ReadId(id, document));
        WriteString(writer, "customerId"u8, customerId, document, ""u8);
        WriteString(writer, "status"u8, status, document, "Created"u8);
        writer.WriteStartArray("lines"u8);
        if (lines.Found)
        {
            var each = new BsonElements(lines.Of(document, BsonElements.Array));
            while (each.MoveNext())
            {
                WriteLine(Expect(each, BsonElements.Document), writer);
            }
        }

        writer.WriteEndArray();
        WriteMoney(writer, "total"u8, total, document);
        writer.WriteNumber("version"u8,
            version.Found ? BsonElements.ReadInt32(version.Of(document, BsonElements.Int32)) : 0);
        WriteInstant(writer, "createdAt"u8, createdAt, document);
        WriteInstant(writer, "updatedAt"u8, updatedAt, document);
        writer.WriteStartArray("events"u8);
        if (events.Found)
        {
            var each = new BsonElements(events.Of(document, BsonElements.Array));
            while (each.MoveNext())
            {
                WriteEvent(Expect(each, BsonElements.Document), writer);
            }
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    /// <summary>The stored order's id (<see cref="Guid.Empty"/> without one, as the reader gives).</summary>
    public static Guid ReadId(ReadOnlySpan<byte> document)
    {
        var id = default(Field);
        var elements = new BsonElements(document);
        while (elements.MoveNext())
        {
            if (elements.Name.SequenceEqual("_id"u8))
            {
                id = new(elements);
            }
        }

        return ReadId(id, document);
    }

    /// <summary>Whether the stored order's customerId is <paramref name="customerId"/> as UTF-8.</summary>
    public static bool HasCustomer(ReadOnlySpan<byte> document, ReadOnlySpan<byte> customerId)
    {
        var stored = default(Field);
        var elements = new BsonElements(document);
        while (elements.MoveNext())
        {
            if (elements.Name.SequenceEqual("customerId"u8))
            {
                stored = new(elements);
            }
        }

        return stored.Found ? StringBytes(stored.Of(document, BsonElements.String))
            .SequenceEqual(customerId) : customerId.IsEmpty;
    }

    private static void WriteLine(ReadOnlySpan<byte> line, Utf8JsonWriter writer)
    {
        Field sku = default, quantity = default, unitPrice = default;
        var elements = new BsonElements(line);
        while (elements.MoveNext())
        {
            var name = elements.Name;
            if (name.SequenceEqual("sku"u8)) sku = new(elements);
            else if (name.SequenceEqual("quantity"u8)) quantity = new(elements);
            else if (name.SequenceEqual("unitPrice"u8)) unitPrice = new(elements);
        }

        writer.WriteStartObject();
        WriteString(writer, "sku"u8, sku, line, ""u8);
        writer.WriteNumber("quantity"u8,
            quantity.Found ? BsonElements.ReadInt32(quantity.Of(line, BsonElements.Int32)) : 0);
        WriteMoney(writer, "unitPrice"u8, unitPrice, line);
        writer.WriteEndObject();
    }

    private static void WriteEvent(ReadOnlySpan<byte> orderEvent, Utf8JsonWriter writer)
    {
        Field sequence = default, type = default, at = default, data = default;
        var elements = new BsonElements(orderEvent);
        while (elements.MoveNext())
        {
            var name = elements.Name;
            if (name.SequenceEqual("sequence"u8)) sequence = new(elements);
            else if (name.SequenceEqual("type"u8)) type = new(elements);
            else if (name.SequenceEqual("at"u8)) at = new(elements);
            else if (name.SequenceEqual("data"u8)) data = new(elements);
        }

        writer.WriteStartObject();
        writer.WriteNumber("sequence"u8,
            sequence.Found ? BsonElements.ReadInt32(sequence.Of(orderEvent, BsonElements.Int32)) : 0);
        WriteString(writer, "type"u8, type, orderEvent, ""u8);
        WriteInstant(writer, "at"u8, at, orderEvent);
        writer.WritePropertyName("data"u8);
        WriteData(data.Found ? data.Of(orderEvent, BsonElements.Document) : default, writer);
        writer.WriteEndObject();
    }

    private static void WriteData(ReadOnlySpan<byte> data, Utf8JsonWriter writer)
    {
        Field paymentReference = default, carrier = default, trackingNumber = default, reason = default, total =
            default;
        if (!data.IsEmpty)
        {
            var elements = new BsonElements(data);
            while (elements.MoveNext())
            {
                var name = elements.Name;
                if (name.SequenceEqual("paymentReference"u8)) paymentReference = new(elements);
                else if (name.SequenceEqual("carrier"u8)) carrier = new(elements);
                else if (name.SequenceEqual("trackingNumber"u8)) trackingNumber = new(elements);
                else if (name.SequenceEqual("reason"u8)) reason = new(elements);
                else if (name.SequenceEqual("total"u8)) total = new(elements);
            }
        }

        writer.WriteStartObject();
        WriteStringIfThere(writer, "paymentReference"u8, paymentReference, data);
        WriteStringIfThere(writer, "carrier"u8, carrier, data);
        WriteStringIfThere(writer, "trackingNumber"u8, trackingNumber, data);
        WriteStringIfThere(writer, "reason"u8, reason, data);
        if (total.Found)
        {
            WriteMoney(writer, "total"u8, total, data);
        }

        writer.WriteEndObject();
    }

    private static Guid ReadId(Field id, ReadOnlySpan<byte> document)
    {
        if (!id.Found)
        {
            return Guid.Empty;
        }

        // int32 length, subtype, bytes: the reader accepts subtype 4 (UUID, RFC 4122 byte order) only.
        var binary = id.Of(document, BsonElements.Binary);
        return BsonElements.ReadInt32(binary) == 16 && binary[4] == (byte)BsonBinarySubType.UuidStandard
            ? new Guid(binary.Slice(5, 16), bigEndian: true)
            : throw BsonElements.Malformed("_id is not a UUID (binary subtype 4)");
    }

    private static void WriteString(Utf8JsonWriter writer, ReadOnlySpan<byte> name, Field field,
        ReadOnlySpan<byte> container, ReadOnlySpan<byte> absent) =>
        writer.WriteString(name, field.Found ? StringBytes(field.Of(container, BsonElements.String)) : absent);

    private static void WriteStringIfThere(Utf8JsonWriter writer, ReadOnlySpan<byte> name, Field field,
        ReadOnlySpan<byte> container)
    {
        if (field.Found)
        {
            writer.WriteString(name, StringBytes(field.Of(container, BsonElements.String)));
        }
    }

    private static ReadOnlySpan<byte> StringBytes(ReadOnlySpan<byte> value)
    {
        var length = BsonElements.ReadInt32(value);
        return length >= 1 && value.Length == 4 + length
            && value[^1] == 0 ? value.Slice(4, length - 1)
            : throw BsonElements.Malformed("a string's length does not match its bytes");
    }

    private static void WriteMoney(Utf8JsonWriter writer, ReadOnlySpan<byte> name, Field field,
        ReadOnlySpan<byte> container)
    {
        var amount = 0m;
        if (field.Found)
        {
            var bits = field.Of(container, BsonElements.Decimal128);
            var stored = Decimal128.FromIEEEBits(BinaryPrimitives.ReadUInt64LittleEndian(bits[8..]),
                BinaryPrimitives.ReadUInt64LittleEndian(bits));
            amount = Money.TwoDecimals(Decimal128.ToDecimal(stored));
        }

        Span<byte> text = stackalloc byte[40];
        Utf8Formatter.TryFormat(amount, text, out var written, TwoDecimals);
        writer.WritePropertyName(name);
        writer.WriteRawValue(text[..written], skipInputValidation: true);
    }

    private static void WriteInstant(Utf8JsonWriter writer, ReadOnlySpan<byte> name, Field field,
        ReadOnlySpan<byte> container)
    {
        var microseconds = field.Found ? BinaryPrimitives.ReadInt64LittleEndian(field.Of(container, BsonElements.Int64))
            : 0;
        Span<byte> text = stackalloc byte[Timestamps.FormatLength];
        OrderBson.FromMicroseconds(microseconds)
            .UtcDateTime.TryFormat(text, out var written, Timestamps.Format, CultureInfo.InvariantCulture);
        writer.WriteString(name, text[..written]);
    }

    private static ReadOnlySpan<byte> Expect(BsonElements element, byte type) =>
        element.Type == type ? element.Value
            : throw BsonElements.Malformed($"an element is of BSON type 0x{element.Type:x2}, not 0x{type:x2}");

    private readonly struct Field
    {
        private readonly int _offset;
        private readonly int _length;
        private readonly byte _type;

        public Field(BsonElements element)
        {
            _offset = element.ValueOffset;
            _length = element.Value.Length;
            _type = element.Type;
        }

        public bool Found => _type != 0;

        public ReadOnlySpan<byte> Of(ReadOnlySpan<byte> container, byte expected) =>
            _type == expected ? container.Slice(_offset, _length)
                : throw BsonElements.Malformed($"a field is of BSON type 0x{_type:x2}, not 0x{expected:x2}");
    }
}
