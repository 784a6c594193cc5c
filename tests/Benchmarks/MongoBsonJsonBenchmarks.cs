using System.Buffers;
using System.Buffers.Text;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using OrderService.Contracts;
using OrderService.Data.Document;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;

namespace OrderService.Benchmarks;

/// <summary>
/// Seed 001 on MongoDB: a 1,000-order listing answer from the stored BSON (what a cursor batch holds), either
/// read into Orders by the store's serializer and written by the API's source-generated JSON (what the service
/// does), or translated field by field from the BSON reader straight to the Utf8JsonWriter without an Order.
/// The candidate translator lives here, not in the store, until this benchmark shows it pays; using it would
/// need a port member that streams JSON instead of Orders. Setup checks that both give the same bytes.
/// </summary>
[Config(typeof(InProcessShortRun))]
public class MongoBsonJsonBenchmarks
{
    private byte[] _batch = null!;
    private ArrayBufferWriter<byte> _output = null!;

    [Params(1000)]
    public int Count { get; set; }

    /// <summary>The orders as one cursor batch holds them: <c>{ firstBatch: [ order, order, … ] }</c>, read by one reader.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var orders = SampleOrders.Many(Count).Select(o => (BsonValue)OrderBson.ToDocument(OrderDocument.Normalize(o)));
        _batch = new BsonDocument("firstBatch", new BsonArray(orders)).ToBson();
        _output = new ArrayBufferWriter<byte>(1 << 20);
        var viaOrders = Write(ViaOrders);
        var straight = Write(StraightToJson);
        var walked = WriteWalked();
        if (!viaOrders.AsSpan().SequenceEqual(straight) || !viaOrders.AsSpan().SequenceEqual(walked))
        {
            throw new InvalidOperationException("A BSON-to-JSON translator does not write the API's bytes.");
        }
    }

    [Benchmark(Baseline = true)]
    public int ReadOrdersThenSerialize() => Run(ViaOrders);

    [Benchmark]
    public int TranslateBsonToJson() => Run(StraightToJson);

    /// <summary>No BSON reader at all: the batch's bytes walked as spans (names and strings copied as UTF-8), the raw end of seed 001.</summary>
    [Benchmark]
    public int WalkBsonBytesToJson()
    {
        _output.ResetWrittenCount();
        using var writer = new Utf8JsonWriter(_output, new JsonWriterOptions { SkipValidation = true });
        BsonBytesToApiJson.WriteBatch(_batch, writer);
        writer.Flush();
        return _output.WrittenCount;
    }

    private static void ViaOrders(IBsonReader reader, Utf8JsonWriter writer)
    {
        var order = OrderBsonSerializer.Instance.Deserialize(BsonDeserializationContext.CreateRoot(reader));
        JsonSerializer.Serialize(writer, order, OrderServiceJsonContext.Default.Order);
    }

    private static void StraightToJson(IBsonReader reader, Utf8JsonWriter writer) => BsonToApiJson.WriteDocument(reader, writer, root: true);

    private int Run(Action<IBsonReader, Utf8JsonWriter> write)
    {
        _output.ResetWrittenCount();
        using var writer = new Utf8JsonWriter(_output, new JsonWriterOptions { SkipValidation = true });
        using var reader = new BsonBinaryReader(new MemoryStream(_batch, writable: false));
        reader.ReadStartDocument();
        reader.ReadName();
        reader.ReadStartArray();
        writer.WriteStartArray();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            write(reader, writer);
        }

        writer.WriteEndArray();
        writer.Flush();
        return _output.WrittenCount;
    }

    private byte[] Write(Action<IBsonReader, Utf8JsonWriter> write)
    {
        Run(write);
        return _output.WrittenSpan.ToArray();
    }

    private byte[] WriteWalked()
    {
        WalkBsonBytesToJson();
        return _output.WrittenSpan.ToArray();
    }

    /// <summary>The same translation over the BSON bytes themselves (bsonspec.org: type byte, C-string name, value).</summary>
    private static class BsonBytesToApiJson
    {
        private static readonly byte[] IdName = "_id"u8.ToArray();
        private static readonly byte[] KeysName = "keys"u8.ToArray();

        public static void WriteBatch(ReadOnlySpan<byte> batch, Utf8JsonWriter writer)
        {
            // { firstBatch: [ order, … ] }: skip the outer length, the array's type byte and name and its length.
            var position = 4 + 1 + batch[5..].IndexOf((byte)0) + 1;
            var end = position + BinaryPrimitivesInt32(batch[position..]) - 1;
            position += 4;
            writer.WriteStartArray();
            while (position < end)
            {
                position += 1 + batch[(position + 1)..].IndexOf((byte)0) + 1; // type 0x03 and the index as a name
                WriteContainer(batch, ref position, writer, array: false, root: true);
            }

            writer.WriteEndArray();
        }

        private static void WriteContainer(ReadOnlySpan<byte> bson, ref int position, Utf8JsonWriter writer, bool array, bool root)
        {
            var end = position + BinaryPrimitivesInt32(bson[position..]) - 1;
            position += 4;
            if (array) writer.WriteStartArray(); else writer.WriteStartObject();
            while (position < end)
            {
                var type = bson[position++];
                var nameLength = bson[position..].IndexOf((byte)0);
                var name = bson.Slice(position, nameLength);
                position += nameLength + 1;
                if (root && name.SequenceEqual(KeysName))
                {
                    position += BinaryPrimitivesInt32(bson[position..]);
                    continue;
                }

                if (!array)
                {
                    writer.WritePropertyName(root && name.SequenceEqual(IdName) ? "id"u8 : name);
                }

                WriteValue(bson, ref position, type, writer);
            }

            position = end + 1;
            if (array) writer.WriteEndArray(); else writer.WriteEndObject();
        }

        private static void WriteValue(ReadOnlySpan<byte> bson, ref int position, byte type, Utf8JsonWriter writer)
        {
            switch (type)
            {
                case 0x02: // string: int32 length (with the trailing 0), UTF-8
                    var length = BinaryPrimitivesInt32(bson[position..]);
                    writer.WriteStringValue(bson.Slice(position + 4, length - 1));
                    position += 4 + length;
                    break;
                case 0x03: // document
                    WriteContainer(bson, ref position, writer, array: false, root: false);
                    break;
                case 0x04: // array
                    WriteContainer(bson, ref position, writer, array: true, root: false);
                    break;
                case 0x05: // binary: int32 length, subtype 4, 16 bytes in RFC 4122 order
                    writer.WriteStringValue(new Guid(bson.Slice(position + 5, 16), bigEndian: true));
                    position += 5 + 16;
                    break;
                case 0x10: // int32
                    writer.WriteNumberValue(BinaryPrimitivesInt32(bson[position..]));
                    position += 4;
                    break;
                case 0x12: // int64: microseconds since the epoch
                    Span<byte> text = stackalloc byte[Timestamps.FormatLength];
                    OrderBson.FromMicroseconds(System.Buffers.Binary.BinaryPrimitives.ReadInt64LittleEndian(bson[position..])).UtcDateTime
                        .TryFormat(text, out var written, Timestamps.Format, System.Globalization.CultureInfo.InvariantCulture);
                    writer.WriteStringValue(text[..written]);
                    position += 8;
                    break;
                case 0x13: // decimal128: low 64 bits, then high
                    var low = System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(bson[position..]);
                    var high = System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(bson[(position + 8)..]);
                    Span<byte> number = stackalloc byte[40];
                    Utf8Formatter.TryFormat(Money.TwoDecimals(Decimal128.ToDecimal(Decimal128.FromIEEEBits(high, low))), number, out var digits, new StandardFormat('F', 2));
                    writer.WriteRawValue(number[..digits], skipInputValidation: true);
                    position += 16;
                    break;
                default:
                    throw new InvalidDataException($"Unexpected BSON type 0x{type:x2} in a stored order.");
            }
        }

        private static int BinaryPrimitivesInt32(ReadOnlySpan<byte> bytes) => System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(bytes);
    }

    /// <summary>
    /// The stored layout (OrderBson) is the API's shape with the API's field order, so the translation is one pass:
    /// _id becomes "id" (UUID text), Decimal128 money two-decimal numbers, Int64 microseconds timestamp text, and the
    /// Idempotency-Keys are skipped.
    /// </summary>
    private static class BsonToApiJson
    {
        public static void WriteDocument(IBsonReader reader, Utf8JsonWriter writer, bool root)
        {
            reader.ReadStartDocument();
            writer.WriteStartObject();
            while (reader.ReadBsonType() != BsonType.EndOfDocument)
            {
                var name = reader.ReadName();
                if (root && name == OrderBson.Keys)
                {
                    reader.SkipValue();
                    continue;
                }

                writer.WritePropertyName(root && name == OrderBson.Id ? "id" : name);
                WriteValue(reader, writer);
            }

            reader.ReadEndDocument();
            writer.WriteEndObject();
        }

        private static void WriteValue(IBsonReader reader, Utf8JsonWriter writer)
        {
            switch (reader.CurrentBsonType)
            {
                case BsonType.Binary:
                    writer.WriteStringValue(reader.ReadBinaryData().ToGuid(GuidRepresentation.Standard));
                    break;
                case BsonType.String:
                    writer.WriteStringValue(reader.ReadString());
                    break;
                case BsonType.Int32:
                    writer.WriteNumberValue(reader.ReadInt32());
                    break;
                case BsonType.Int64:
                    Span<char> text = stackalloc char[Timestamps.FormatLength];
                    OrderBson.FromMicroseconds(reader.ReadInt64()).UtcDateTime.TryFormat(text, out var written, Timestamps.Format, System.Globalization.CultureInfo.InvariantCulture);
                    writer.WriteStringValue(text[..written]);
                    break;
                case BsonType.Decimal128:
                    Span<byte> number = stackalloc byte[40];
                    Utf8Formatter.TryFormat(Money.TwoDecimals(Decimal128.ToDecimal(reader.ReadDecimal128())), number, out var length, new StandardFormat('F', 2));
                    writer.WriteRawValue(number[..length], skipInputValidation: true);
                    break;
                case BsonType.Array:
                    reader.ReadStartArray();
                    writer.WriteStartArray();
                    while (reader.ReadBsonType() != BsonType.EndOfDocument)
                    {
                        WriteValue(reader, writer);
                    }

                    reader.ReadEndArray();
                    writer.WriteEndArray();
                    break;
                case BsonType.Document:
                    WriteDocument(reader, writer, root: false);
                    break;
                default:
                    throw new InvalidDataException($"Unexpected BSON type {reader.CurrentBsonType} in a stored order.");
            }
        }
    }
}
