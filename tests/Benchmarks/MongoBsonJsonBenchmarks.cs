using System.Buffers;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using MongoDB.Bson.Serialization.Serializers;
using OrderService.Contracts;
using OrderService.Data.Document;
using OrderService.Data.MongoDb;

namespace OrderService.Benchmarks;

/// <summary>
/// Seed 001 on MongoDB: a 1,000-order answer from the stored BSON (what a cursor batch holds), either read into Orders
/// by the store's serializer and written by the API's source-generated JSON (the Order path, Store:MongoDb:RawBsonToJson
/// false), or read as raw documents (the driver's RawBsonDocumentSerializer, as the store's cursor does) and translated
/// by the store's <see cref="OrderBsonJson"/> straight to the Utf8JsonWriter (the default). Setup checks that both give
/// the same bytes.
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
        var orders = SampleOrders.Many(Count).Select(o => (BsonValue)new OrderInsert(OrderDocument.Normalize(o)).ToBsonDocument());
        _batch = new BsonDocument("firstBatch", new BsonArray(orders)).ToBson();
        _output = new ArrayBufferWriter<byte>(1 << 20);
        var viaOrders = Write(ViaOrders);
        var translated = Write(Translated);
        if (!viaOrders.AsSpan().SequenceEqual(translated))
        {
            throw new InvalidOperationException("The store's BSON-to-JSON translator does not write the API's bytes.");
        }
    }

    [Benchmark(Baseline = true)]
    public int ReadOrdersThenSerialize() => Run(ViaOrders);

    [Benchmark]
    public int TranslateRawBsonToJson() => Run(Translated);

    private static void ViaOrders(IBsonReader reader, Utf8JsonWriter writer)
    {
        var order = OrderBsonSerializer.Instance.Deserialize(BsonDeserializationContext.CreateRoot(reader));
        JsonSerializer.Serialize(writer, order, OrderServiceJsonContext.Default.Order);
    }

    private static void Translated(IBsonReader reader, Utf8JsonWriter writer)
    {
        using var document = RawBsonDocumentSerializer.Instance.Deserialize(BsonDeserializationContext.CreateRoot(reader));
        var bytes = document.Slice.AccessBackingBytes(0);
        OrderBsonJson.WriteOrder(bytes.AsSpan(0, document.Slice.Length), writer);
    }

    private int Run(Action<IBsonReader, Utf8JsonWriter> write)
    {
        _output.ResetWrittenCount();
        using var writer = new Utf8JsonWriter(_output, new JsonWriterOptions { SkipValidation = true });
        // A stream over a byte buffer, as the driver reads a reply: a raw document is then a slice of it, not a copy.
        using var reader = new BsonBinaryReader(new ByteBufferStream(new ByteArrayBuffer(_batch, isReadOnly: true), ownsBuffer: true));
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
}
