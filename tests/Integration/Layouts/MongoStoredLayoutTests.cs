using MongoDB.Bson;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Layouts;

/// <summary>
/// The stored MongoDB document, read back raw from the collection: every field's name, order and BSON type as
/// <see cref="OrderBson"/> documents them. The reads, the indexes and the documents already stored rely on this layout,
/// whatever writes it (the class maps for an insert; a transition's <c>$push</c>, or with no If-Match its pipeline).
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoStoredLayoutTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_keyed_create_a_keyed_pay_and_a_ship_without_if_match_store_every_field_under_its_name_and_bson_type()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        var order = TestOrders.New();
        (await store.Store.CreateAsync(new NewOrder(order, "create-1", TestOrders.Hash("create-1")), Ct)).Outcome.ShouldBe(CreateOutcome.Created);
        var pay = TestOrders.Command(order.Id, OrderAction.Pay, expectedVersion: 1) with { IdempotencyKey = "pay-1", RequestHash = TestOrders.Hash("pay-1") };
        (await store.Store.TransitionAsync(pay, Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);
        (await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Ship), Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);

        var stored = await store.RawDocumentAsync(order.Id);

        Layout(stored).ShouldBe(
        [
            "_id: Binary", "customerId: String", "status: String",
            "lines: Array", "lines.0: Document", "lines.0.sku: String", "lines.0.quantity: Int32", "lines.0.unitPrice: Decimal128",
            "lines.1: Document", "lines.1.sku: String", "lines.1.quantity: Int32", "lines.1.unitPrice: Decimal128",
            "total: Decimal128", "version: Int32", "createdAt: Int64", "updatedAt: Int64",
            "events: Array",
            "events.0: Document", "events.0.sequence: Int32", "events.0.type: String", "events.0.at: Int64",
            "events.0.data: Document", "events.0.data.total: Decimal128",
            "events.1: Document", "events.1.sequence: Int32", "events.1.type: String", "events.1.at: Int64",
            "events.1.data: Document", "events.1.data.paymentReference: String",
            "events.2: Document", "events.2.sequence: Int32", "events.2.type: String", "events.2.at: Int64",
            "events.2.data: Document", "events.2.data.carrier: String", "events.2.data.trackingNumber: String",
            "keys: Array",
            "keys.0: Document", "keys.0.key: String", "keys.0.requestHash: String", "keys.0.version: Int32", "keys.0.at: Int64",
            "keys.1: Document", "keys.1.key: String", "keys.1.requestHash: String", "keys.1.version: Int32", "keys.1.at: Int64",
        ]);
        stored["_id"].AsBsonBinaryData.SubType.ShouldBe(BsonBinarySubType.UuidStandard);
        stored["_id"].AsBsonBinaryData.ToGuid(GuidRepresentation.Standard).ShouldBe(order.Id);
        stored["status"].AsString.ShouldBe(nameof(OrderStatus.Shipped));
        stored["lines"][1]["unitPrice"].AsDecimal128.ToString().ShouldBe("0.50", "money keeps two decimals");
        stored["total"].AsDecimal128.ToString().ShouldBe("37.52");
        stored["createdAt"].AsInt64.ShouldBe(OrderBson.ToMicroseconds(order.CreatedAt), "instants are microseconds since the epoch");
        stored["events"][0]["at"].AsInt64.ShouldBe(OrderBson.ToMicroseconds(order.CreatedAt));
        stored["keys"][0].AsBsonDocument.ShouldBe(new BsonDocument
        {
            { "key", "create-1" }, { "requestHash", TestOrders.Hash("create-1") }, { "version", 1 }, { "at", OrderBson.ToMicroseconds(order.CreatedAt) },
        });
    }

    /// <summary>Every field of the document, depth first in stored order, as "path: BSON type".</summary>
    private static List<string> Layout(BsonValue value, string path = "", List<string>? into = null)
    {
        into ??= [];
        var children = value switch
        {
            BsonDocument document => document.Elements.Select(e => (e.Name, e.Value)),
            BsonArray array => array.Values.Select((v, i) => (i.ToString(System.Globalization.CultureInfo.InvariantCulture), v)),
            _ => [],
        };
        foreach (var (name, child) in children)
        {
            var childPath = path.Length == 0 ? name : path + "." + name;
            into.Add($"{childPath}: {child.BsonType}");
            Layout(child, childPath, into);
        }

        return into;
    }
}
