using System.Text.Json;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using MongoDB.Bson.Serialization.Serializers;
using OrderService.Contracts;
using OrderService.Data.Document;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;

namespace OrderService.Benchmarks;

/// <summary>
/// The MongoDB store's hand-written BSON mapping (<see cref="OrderBson"/>: <see cref="OrderBsonSerializer"/> reads, <see cref="OrderBson.Write"/>
/// writes) against the driver's own class-map serializer set up for the same stored layout (<see cref="ClassMapOrderBson"/>).
/// Reads: a 1,000-order cursor batch read into Orders, as every Order read does. Writes: one order's bytes as an insert
/// sends them.
/// Setup checks that both read the same orders and write the same bytes.
/// </summary>
[Config(typeof(InProcessShortRun))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class OrderBsonBenchmarks
{
    private byte[] _batch = null!;
    private Order _order = null!;
    private IBsonSerializer<Order> _classMap = null!;
    private readonly List<Order> _read = new(1000);

    [Params(1000)]
    public int Count { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _classMap = ClassMapOrderBson.Serializer();
        var orders = SampleOrders.Many(Count).Select(OrderDocument.Normalize).ToArray();
        _order = orders[0];
        _batch = new BsonDocument("firstBatch", new BsonArray(orders.Select(o => (BsonValue)OrderBson.ToDocument(o)))).ToBson();

        var handWritten = ReadBatch(OrderBsonSerializer.Instance).Select(Json);
        var classMapped = ReadBatch(_classMap).Select(Json);
        if (!handWritten.SequenceEqual(classMapped))
        {
            throw new InvalidOperationException("The class map does not read the orders the hand-written reader reads.");
        }

        if (!HandWrittenBytes().AsSpan().SequenceEqual(ClassMappedBytes()))
        {
            throw new InvalidOperationException("The class map does not write the bytes the hand-written writer writes.");
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
    public int WriteHandWritten() => HandWrittenBytes().Length;

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

    /// <summary>As an insert sends it: the store builds the order's BsonDocument, the driver writes its bytes.</summary>
    private byte[] HandWrittenBytes() => OrderBson.ToDocument(_order).ToBson();

    /// <summary>As an insert into a collection of Orders would send it: the class map writes the bytes.</summary>
    private byte[] ClassMappedBytes() => _order.ToBson(_classMap);

    private static string Json(Order order) => JsonSerializer.Serialize(order, OrderServiceJsonContext.Default.Order);
}

/// <summary>
/// The plain alternative to <see cref="OrderBson"/>: the driver's class maps of the order records, with the driver's own
/// serializers for the layout's choices (the id as a standard UUID, the status by name, money as Decimal128) and one
/// small serializer for instants as Int64 microseconds, which the driver has no representation for.
/// </summary>
internal static class ClassMapOrderBson
{
    private static readonly DecimalSerializer Money = new(BsonType.Decimal128);
    private static readonly MicrosecondsSerializer Instant = new();

    public static IBsonSerializer<Order> Serializer()
    {
        RegisterOnce<OrderLine>(map =>
        {
            map.MapMember(l => l.Sku).SetElementName("sku");
            map.MapMember(l => l.Quantity).SetElementName("quantity");
            map.MapMember(l => l.UnitPrice).SetElementName("unitPrice").SetSerializer(Money);
            map.MapCreator(l => new OrderLine(l.Sku, l.Quantity, l.UnitPrice));
        });
        RegisterOnce<OrderEventData>(map =>
        {
            map.MapMember(d => d.PaymentReference).SetElementName("paymentReference").SetIgnoreIfNull(true).SetDefaultValue((object?)null);
            map.MapMember(d => d.Carrier).SetElementName("carrier").SetIgnoreIfNull(true).SetDefaultValue((object?)null);
            map.MapMember(d => d.TrackingNumber).SetElementName("trackingNumber").SetIgnoreIfNull(true).SetDefaultValue((object?)null);
            map.MapMember(d => d.Reason).SetElementName("reason").SetIgnoreIfNull(true).SetDefaultValue((object?)null);
            map.MapMember(d => d.Total).SetElementName("total").SetIgnoreIfNull(true).SetDefaultValue((object?)null).SetSerializer(new NullableSerializer<decimal>(Money));
            // A default lets the creator run when the stored data leaves a field out.
            map.MapCreator(d => new OrderEventData(d.PaymentReference, d.Carrier, d.TrackingNumber, d.Reason, d.Total));
        });
        RegisterOnce<OrderEvent>(map =>
        {
            map.MapMember(e => e.Sequence).SetElementName("sequence");
            map.MapMember(e => e.Type).SetElementName("type");
            map.MapMember(e => e.At).SetElementName("at").SetSerializer(Instant);
            map.MapMember(e => e.Data).SetElementName("data");
            map.MapCreator(e => new OrderEvent(e.Sequence, e.Type, e.At, e.Data));
        });
        RegisterOnce<Order>(map =>
        {
            map.MapIdMember(o => o.Id).SetSerializer(new GuidSerializer(GuidRepresentation.Standard));
            map.MapMember(o => o.CustomerId).SetElementName(OrderBson.CustomerId);
            map.MapMember(o => o.Status).SetElementName(OrderBson.Status).SetSerializer(new EnumSerializer<OrderStatus>(BsonType.String));
            map.MapMember(o => o.Lines).SetElementName(OrderBson.Lines);
            map.MapMember(o => o.Total).SetElementName(OrderBson.Total).SetSerializer(Money);
            map.MapMember(o => o.Version).SetElementName(OrderBson.Version);
            map.MapMember(o => o.CreatedAt).SetElementName(OrderBson.CreatedAt).SetSerializer(Instant);
            map.MapMember(o => o.UpdatedAt).SetElementName(OrderBson.UpdatedAt).SetSerializer(Instant);
            map.MapMember(o => o.Events).SetElementName(OrderBson.Events);
            map.MapCreator(o => new Order(o.Id, o.CustomerId, o.Status, o.Lines, o.Total, o.Version, o.CreatedAt, o.UpdatedAt, o.Events));
            map.SetIgnoreExtraElements(true); // the Idempotency-Keys, as the store's reads project them away
        });
        return BsonSerializer.LookupSerializer<Order>();
    }

    private static void RegisterOnce<T>(Action<BsonClassMap<T>> map)
    {
        if (!BsonClassMap.IsClassMapRegistered(typeof(T)))
        {
            BsonClassMap.RegisterClassMap(map);
        }
    }

    /// <summary>An instant as Int64 microseconds since the Unix epoch, the stored layout's choice.</summary>
    private sealed class MicrosecondsSerializer : StructSerializerBase<DateTimeOffset>
    {
        public override DateTimeOffset Deserialize(BsonDeserializationContext context, BsonDeserializationArgs args) =>
            OrderBson.FromMicroseconds(context.Reader.ReadInt64());

        public override void Serialize(BsonSerializationContext context, BsonSerializationArgs args, DateTimeOffset value) =>
            context.Writer.WriteInt64(OrderBson.ToMicroseconds(value));
    }
}
