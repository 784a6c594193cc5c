using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using OrderService.Data.Document;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using OrderService.Unit.Tests.Commands;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Documents;

/// <summary>The stored BSON of an order, offline: its exact layout, and a byte-level round trip that keeps every microsecond and every cent.</summary>
public sealed class MongoOrderBsonTests
{
    private static readonly Guid OrderId = Guid.Parse("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001");
    private static readonly DateTimeOffset Created = new DateTimeOffset(2025, 3, 4, 5, 6, 7, TimeSpan.Zero).AddTicks(1_234_560);

    [Fact]
    public void An_order_is_stored_in_the_api_shape_with_uuid_decimal128_and_microsecond_longs()
    {
        var document = OrderClassMaps.Insert(PaidOrder(), "order-42", "HASH");

        Rendered.Bson(document).ShouldBe("""
            { "_id" : UUID("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"), "customerId" : "c-1", "status" : "Paid",
            "lines" : [{ "sku" : "SKU-1", "quantity" : 3, "unitPrice" : NumberDecimal("12.34") }, { "sku" : "SKU-2", "quantity" : 1, "unitPrice" : NumberDecimal("0.50") }],
            "total" : NumberDecimal("37.52"), "version" : 2, "createdAt" : NumberLong("1741064767123456"), "updatedAt" : NumberLong("1741064767223457"),
            "events" : [{ "sequence" : 1, "type" : "Created", "at" : NumberLong("1741064767123456"), "data" : { "total" : NumberDecimal("37.52") } },
            { "sequence" : 2, "type" : "Paid", "at" : NumberLong("1741064767223457"), "data" : { "paymentReference" : "p-9" } }],
            "keys" : [{ "key" : "order-42", "requestHash" : "HASH", "version" : 1, "at" : NumberLong("1741064767123456") }] }
            """.ReplaceLineEndings(" "));
    }

    [Fact]
    public void The_id_is_binary_subtype_4_in_rfc_4122_byte_order()
    {
        var id = OrderClassMaps.Insert(PaidOrder())["_id"].AsBsonBinaryData;

        id.SubType.ShouldBe(BsonBinarySubType.UuidStandard);
        id.Bytes.ShouldBe(OrderId.ToByteArray(bigEndian: true)); // so a UUIDv7 sorts by its time prefix, as in PostgreSQL
    }

    [Fact]
    public void An_order_without_a_key_has_no_keys_field_so_the_partial_key_index_leaves_it_out() =>
        OrderClassMaps.Insert(PaidOrder()).Contains("keys").ShouldBeFalse();

    [Fact]
    public void The_bytes_read_back_to_the_same_order_to_the_microsecond_and_the_cent()
    {
        var order = PaidOrder();

        var read = RoundTrip(order);

        OrderDocument.ToJson(read).ShouldBe(OrderDocument.ToJson(OrderDocument.Normalize(order)));
        read.CreatedAt.ShouldBe(Created);
        read.UpdatedAt.ShouldBe(Created.AddTicks(1_000_010));
        read.Events[1].At.ShouldBe(Created.AddTicks(1_000_010));
        read.Lines[1].UnitPrice.ToString(System.Globalization.CultureInfo.InvariantCulture).ShouldBe("0.50");
        read.Total.ShouldBe(37.52m);
        read.Id.ShouldBe(OrderId);
    }

    [Fact]
    public void A_timestamp_finer_than_a_microsecond_is_truncated_as_every_store_does()
    {
        var at = Created.AddTicks(7); // 700 ns past the microsecond

        OrderBson.FromMicroseconds(OrderBson.ToMicroseconds(at)).ShouldBe(Timestamps.Truncate(at));
    }

    [Fact]
    public void The_keyed_reader_returns_the_entry_of_the_key_it_was_asked_for_with_the_order()
    {
        var document = OrderClassMaps.Insert(PaidOrder(), "order-42", "HASH");
        document["keys"].AsBsonArray.Add(new BsonDocument { { "key", "pay-1" }, { "requestHash", "PAY" }, { "version", 2 } });
        var bytes = document.ToBson();

        var create = ReadKeyed(bytes, "order-42");
        var pay = ReadKeyed(bytes, "pay-1");
        var unknown = ReadKeyed(bytes, "other");
        var none = ReadKeyed(bytes, null);

        create.Key.ShouldBe(new StoredKey("order-42", "HASH", 1));
        pay.Key.ShouldBe(new StoredKey("pay-1", "PAY", 2));
        unknown.Key.ShouldBeNull();
        none.Key.ShouldBeNull();
        pay.Order.Id.ShouldBe(OrderId);
        OrderDocument.ToJson(pay.Order).ShouldBe(OrderDocument.ToJson(OrderDocument.Normalize(PaidOrder())));
    }

    [Fact]
    public void A_replay_from_the_stored_document_cuts_the_order_back_to_the_keys_version()
    {
        var shipped = Transitions.Apply(PaidOrder(), OrderAction.Ship, Created.AddSeconds(2), new OrderEventData(Carrier: "DHL", TrackingNumber: "T-1"));
        var document = OrderClassMaps.Insert(OrderDocument.Normalize(shipped));
        document.Add("keys", new BsonArray { new BsonDocument { { "key", "pay-1" }, { "requestHash", "PAY" }, { "version", 2 } } });

        var keyed = ReadKeyed(document.ToBson(), "pay-1");
        var replayed = OrderHistory.AsOf(keyed.Order, keyed.Key!.Value.Version);

        replayed.Status.ShouldBe(OrderStatus.Paid);
        replayed.Version.ShouldBe(2);
        OrderDocument.ToJson(replayed).ShouldBe(OrderDocument.ToJson(OrderDocument.Normalize(PaidOrder())));
    }

    [Fact]
    public void Fields_the_reader_does_not_know_are_skipped()
    {
        var document = OrderClassMaps.Insert(PaidOrder(), "order-42", "HASH");
        document.Add("addedLater", new BsonArray { new BsonDocument { { "key", "pay-1" }, { "requestHash", "H" }, { "version", 2 } } });
        document["events"][1]["data"].AsBsonDocument.Add("addedLater", 1);

        var read = Read(document.ToBson());

        OrderDocument.ToJson(read).ShouldBe(OrderDocument.ToJson(OrderDocument.Normalize(PaidOrder())));
    }

    [Fact]
    public void Every_event_payload_field_round_trips()
    {
        var order = PaidOrder();
        order = Transitions.Apply(order, OrderAction.Ship, Created.AddSeconds(2), new OrderEventData(Carrier: "DHL", TrackingNumber: "T-1"));
        var cancelled = Transitions.Apply(PaidOrder(), OrderAction.Cancel, Created.AddSeconds(3), new OrderEventData(Reason: "changed my mind"));

        OrderDocument.ToJson(RoundTrip(order)).ShouldBe(OrderDocument.ToJson(OrderDocument.Normalize(order)));
        OrderDocument.ToJson(RoundTrip(cancelled)).ShouldBe(OrderDocument.ToJson(OrderDocument.Normalize(cancelled)));
    }

    private static KeyedOrder ReadKeyed(byte[] bytes, string? key)
    {
        return KeyedOrder.Read(BsonSerializer.Deserialize<BsonDocument>(bytes), key);
    }

    private static Order RoundTrip(Order order) => Read(OrderClassMaps.Insert(OrderDocument.Normalize(order)).ToBson());

    private static Order Read(byte[] bytes)
    {
        using var reader = new BsonBinaryReader(new MemoryStream(bytes));
        return OrderClassMaps.Order.Deserialize(BsonDeserializationContext.CreateRoot(reader));
    }

    private static Order PaidOrder()
    {
        var order = Transitions.Create(OrderId, "c-1", [new OrderLine("SKU-1", 3, 12.34m), new OrderLine("SKU-2", 1, 0.5m)], Created);
        return Transitions.Apply(order, OrderAction.Pay, Created.AddTicks(1_000_010), new OrderEventData(PaymentReference: "p-9"));
    }
}
