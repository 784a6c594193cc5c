using BenchmarkDotNet.Attributes;
using MongoDB.Bson;
using OrderService.Data.Document;
using OrderService.Data.MongoDb;

namespace OrderService.Benchmarks;

/// <summary>
/// One keyed insert's bytes as the store sends them (<see cref="OrderInsert"/>, the class maps straight to bytes)
/// against the same class maps building a BsonDocument first, as an insert into a collection of BsonDocuments would.
/// Setup checks that both write the same bytes.
/// </summary>
[Config(typeof(InProcessShortRun))]
public class OrderBsonBenchmarks
{
    private OrderInsert _insert = null!;

    [GlobalSetup]
    public void Setup()
    {
        _insert = new OrderInsert(OrderDocument.Normalize(SampleOrders.Many(1)[0]), "order-1", "HASH");
        if (!ThroughBsonDocumentBytes().AsSpan().SequenceEqual(ClassMappedBytes()))
        {
            throw new InvalidOperationException("The insert does not write the bytes its BsonDocument holds.");
        }
    }

    [Benchmark(Baseline = true)]
    public int WriteWithClassMap() => ClassMappedBytes().Length;

    [Benchmark]
    public int WriteThroughBsonDocument() => ThroughBsonDocumentBytes().Length;

    /// <summary>As an insert into a collection of BsonDocuments would send it: the class maps build the document, the driver writes its bytes.</summary>
    private byte[] ThroughBsonDocumentBytes() => _insert.ToBsonDocument().ToBson();

    /// <summary>As the store's insert sends it: the class maps write the bytes.</summary>
    private byte[] ClassMappedBytes() => _insert.ToBson();
}
