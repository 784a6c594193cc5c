using System.Text.Json;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;

using OrderService.Contracts;
using OrderService.Data.Document;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;

namespace OrderService.Benchmarks;

/// <summary>
/// Reads: the MongoDB store's hand-written reader (<see cref="OrderBsonSerializer"/>) against the driver's class-map
/// serializer of the same stored layout (<see cref="OrderClassMaps"/>), a 1,000-order cursor batch read into Orders, as
/// every Order read does. Writes: one keyed insert's bytes as the store sends them (<see cref="OrderInsert"/>, the class
/// maps straight to bytes) against the same class maps building a BsonDocument first, as an insert into a collection of
/// BsonDocuments would.
/// Setup checks that both read the same orders and write the same bytes.
/// </summary>
[Config(typeof(InProcessShortRun))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class OrderBsonBenchmarks
{
    private byte[] _batch = null!;
    private OrderInsert _insert = null!;
    private IBsonSerializer<Order> _classMap = null!;
    private readonly List<Order> _read = new(1000);

    [Params(1000)]
    public int Count { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _classMap = OrderClassMaps.Order;
        var orders = SampleOrders.Many(Count).Select(OrderDocument.Normalize).ToArray();
        _insert = new OrderInsert(orders[0], "order-1", "HASH");
        _batch = new BsonDocument("firstBatch", new BsonArray(orders.Select(o => (BsonValue)new OrderInsert(o).ToBsonDocument()))).ToBson();

        var handWritten = ReadBatch(OrderBsonSerializer.Instance).Select(Json);
        var classMapped = ReadBatch(_classMap).Select(Json);
        if (!handWritten.SequenceEqual(classMapped))
        {
            throw new InvalidOperationException("The class map does not read the orders the hand-written reader reads.");
        }

        if (!ThroughBsonDocumentBytes().AsSpan().SequenceEqual(ClassMappedBytes()))
        {
            throw new InvalidOperationException("The insert does not write the bytes its BsonDocument holds.");
        }
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("read")]
    public int ReadWithClassMap() => ReadBatch(_classMap).Count;

    [Benchmark]
    [BenchmarkCategory("read")]
    public int ReadHandWritten() => ReadBatch(OrderBsonSerializer.Instance).Count;

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("write")]
    public int WriteWithClassMap() => ClassMappedBytes().Length;

    [Benchmark]
    [BenchmarkCategory("write")]
    public int WriteThroughBsonDocument() => ThroughBsonDocumentBytes().Length;

    private List<Order> ReadBatch(IBsonSerializer<Order> serializer)
    {
        _read.Clear();
        using var reader = new BsonBinaryReader(new ByteBufferStream(new ByteArrayBuffer(_batch, isReadOnly: true), ownsBuffer: true));
        reader.ReadStartDocument();
        reader.ReadName();
        reader.ReadStartArray();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            _read.Add(serializer.Deserialize(BsonDeserializationContext.CreateRoot(reader)));
        }

        return _read;
    }

    /// <summary>As an insert into a collection of BsonDocuments would send it: the class maps build the document, the driver writes its bytes.</summary>
    private byte[] ThroughBsonDocumentBytes() => _insert.ToBsonDocument().ToBson();

    /// <summary>As the store's insert sends it: the class maps write the bytes.</summary>
    private byte[] ClassMappedBytes() => _insert.ToBson();

    private static string Json(Order order) => JsonSerializer.Serialize(order, OrderServiceJsonContext.Default.Order);
}
