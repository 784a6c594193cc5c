using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using MongoDB.Bson;
using MongoDB.Bson.IO;
using OrderService.Contracts;
using OrderService.Data.Document;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Documents;

/// <summary>
/// The raw BSON to JSON translator (<see cref="OrderBsonJson"/>), offline: for every shape an order can take it writes
/// byte for byte what the Order path writes (the store's reader, then the API's JSON context, into a writer made as
/// the API's list stream makes it), and it fails where that path fails.
/// </summary>
public sealed class MongoRawJsonTests
{
    private static readonly DateTimeOffset At = new DateTimeOffset(2026, 11, 27, 8, 9, 10, TimeSpan.Zero).AddTicks(1_234_560);

    public static TheoryData<string> Shapes => [.. ShapedOrders().Keys];

    [Theory]
    [MemberData(nameof(Shapes))]
    public void Every_order_shape_is_written_as_the_order_path_writes_it(string shape)
    {
        var order = ShapedOrders()[shape];
        var bson = new OrderInsert(OrderDocument.Normalize(order), "key-1", "HASH").ToBson(); // with a key entry, as stored

        Translated(bson).ShouldBe(ViaOrder(bson));
    }

    [Fact]
    public void A_writer_with_a_relaxed_encoder_escapes_the_translated_strings_as_it_escapes_the_orders()
    {
        var bson = new OrderInsert(OrderDocument.Normalize(ShapedOrders()["non-ascii and escapes"])).ToBson();

        Translated(bson, JavaScriptEncoder.UnsafeRelaxedJsonEscaping).ShouldBe(ViaOrder(bson, JavaScriptEncoder.UnsafeRelaxedJsonEscaping));
        Translated(bson, JavaScriptEncoder.UnsafeRelaxedJsonEscaping).ShouldNotBe(Translated(bson));
    }

    [Fact]
    public void Fields_out_of_order_unknown_or_missing_are_written_as_the_reader_makes_them()
    {
        var stored = new OrderInsert(OrderDocument.Normalize(ShapedOrders()["shipped"])).ToBsonDocument();
        var shuffled = new BsonDocument(stored.Elements.Reverse()) { { "addedLater", new BsonDocument("x", new BsonArray { 1.5, true, BsonNull.Value, ObjectId.Empty, new BsonDateTime(0) }) } };
        shuffled["lines"].AsBsonArray[0].AsBsonDocument.InsertAt(0, new BsonElement("note", "unknown"));
        shuffled["events"].AsBsonArray[1]["data"].AsBsonDocument.InsertAt(0, new BsonElement("future", 7L));
        var sparse = new BsonDocument
        {
            { "_id", OrderBson.IdValue(Guid.Parse("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001")) },
            { "events", new BsonArray { new BsonDocument("type", "Created") } },
            { "lines", new BsonArray { new BsonDocument() } },
        };

        foreach (var document in new[] { shuffled, sparse, new BsonDocument() })
        {
            var bson = document.ToBson();
            Translated(bson).ShouldBe(ViaOrder(bson));
        }
    }

    [Fact]
    public void A_field_of_another_bson_type_fails_as_the_reader_fails()
    {
        var stored = new OrderInsert(OrderDocument.Normalize(ShapedOrders()["paid"])).ToBsonDocument();
        foreach (var (field, value) in new (string, BsonValue)[] { ("version", 2L), ("total", 12.5), ("createdAt", new BsonDateTime(At.UtcDateTime)), ("_id", "not a uuid") })
        {
            var broken = stored.DeepClone().AsBsonDocument;
            broken[field] = value;
            var bson = broken.ToBson();

            Should.Throw<Exception>(() => ViaOrder(bson));
            Should.Throw<InvalidDataException>(() => Translated(bson));
        }
    }

    [Fact]
    public void The_id_and_the_customer_are_read_from_the_bytes_for_the_standby_fall_back_and_customer_scoping()
    {
        var order = OrderDocument.Normalize(ShapedOrders()["non-ascii and escapes"]);
        var bson = new OrderInsert(order).ToBson();

        OrderBsonJson.ReadId(bson).ShouldBe(order.Id);
        OrderBsonJson.HasCustomer(bson, Encoding.UTF8.GetBytes(order.CustomerId)).ShouldBeTrue();
        OrderBsonJson.HasCustomer(bson, "kunde-"u8).ShouldBeFalse();
        OrderBsonJson.HasCustomer(new BsonDocument().ToBson(), ""u8).ShouldBeTrue(); // the reader's "" for a missing customer
    }

    /// <summary>The store's reader, then the API's context, into a writer made as OrderStream makes it.</summary>
    private static string ViaOrder(byte[] bson, JavaScriptEncoder? encoder = null)
    {
        using var reader = new BsonBinaryReader(new ByteBufferStream(new ByteArrayBuffer(bson, isReadOnly: true)));
        var order = OrderBson.Read(reader, null, out _);
        return Write(writer => JsonSerializer.Serialize(writer, order, ApiOrder), encoder);
    }

    private static string Translated(byte[] bson, JavaScriptEncoder? encoder = null) => Write(writer => OrderBsonJson.WriteOrder(bson, writer), encoder);

    private static string Write(Action<Utf8JsonWriter> write, JavaScriptEncoder? encoder)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(output, new JsonWriterOptions { Encoder = encoder ?? ApiOptions.Encoder, SkipValidation = true }))
        {
            write(writer);
        }

        return Encoding.UTF8.GetString(output.WrittenSpan);
    }

    /// <summary>The serializer options as the service configures ASP.NET Core's (Web defaults, then the context's rules).</summary>
    private static readonly JsonSerializerOptions ApiOptions = ConfiguredApiOptions();

    private static readonly JsonTypeInfo<Order> ApiOrder = (JsonTypeInfo<Order>)ApiOptions.GetTypeInfo(typeof(Order));

    private static JsonSerializerOptions ConfiguredApiOptions()
    {
        var options = new JsonSerializerOptions(JsonSerializerDefaults.Web);
        OrderServiceJsonContext.Configure(options);
        options.MakeReadOnly(populateMissingResolver: true);
        return options;
    }

    /// <summary>Every status, every event kind and its data, no data, non-ASCII and escaped text, extreme money and instants.</summary>
    private static Dictionary<string, Order> ShapedOrders()
    {
        var lines = new[] { new OrderLine("SKU-1", 2, 19.99m), new OrderLine("SKU-2", 1, 0.5m), new OrderLine("SKU-3", 1_000, 0.01m) };
        var created = Transitions.Create(Guid.CreateVersion7(At), "c-1", lines, At);
        var paid = Transitions.Apply(created, OrderAction.Pay, At.AddMilliseconds(1), new OrderEventData(PaymentReference: "pay-1"));
        var shipped = Transitions.Apply(paid, OrderAction.Ship, At.AddMilliseconds(2), new OrderEventData(Carrier: "DHL", TrackingNumber: "TRK-1"));
        var completed = Transitions.Apply(shipped, OrderAction.Complete, At.AddMilliseconds(3), new OrderEventData());
        var cancelledEarly = Transitions.Apply(created, OrderAction.Cancel, At.AddTicks(10), new OrderEventData(Reason: "changed my mind"));
        var cancelledPaid = Transitions.Apply(paid, OrderAction.Cancel, At.AddSeconds(1), new OrderEventData());
        var text = Transitions.Create(Guid.CreateVersion7(At), "kunde-ÄÖÜ-日本-🙂",
            [new OrderLine("SKU-ß-\u00e9\u0301", 1, 1m), new OrderLine("<b>\"quoted\" & 'apostrophe'</b>\\/", 1, 2m), new OrderLine("ctrl-\u0001\t\n\u2028\u007f\u0000", 1, 3m)], At);
        text = Transitions.Apply(text, OrderAction.Cancel, At.AddTicks(20), new OrderEventData(Reason: "Größe passt nicht 👟 </script>"));
        var large = Transitions.Create(Guid.CreateVersion7(At), "c-large",
            [new OrderLine("SKU-MAX", 1, 9_999_999_999_999_999.99m), new OrderLine("SKU-BIG", 3, 12_345_678_901_234_567_890_123_456.78m)], At);
        var odd = new Order(Guid.Empty, "", OrderStatus.Completed, [], 0.005m, int.MaxValue, DateTimeOffset.UnixEpoch, new DateTimeOffset(9999, 12, 31, 23, 59, 59, TimeSpan.Zero).AddTicks(9_999_990),
            [new OrderEvent(1, "Created", DateTimeOffset.UnixEpoch.AddTicks(-10), new OrderEventData(Total: 0.015m)),
             new OrderEvent(2, "Paid", At, new OrderEventData("p", "c", "t", "r", 1.235m))]);
        return new()
        {
            ["created"] = created,
            ["paid"] = paid,
            ["shipped"] = shipped,
            ["completed"] = completed,
            ["cancelled before payment"] = cancelledEarly,
            ["cancelled after payment, no reason"] = cancelledPaid,
            ["non-ascii and escapes"] = text,
            ["large money"] = large,
            ["empty, rounding, extreme instants, every data field"] = odd,
        };
    }
}
