using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Concurrency;

/// <summary>
/// Against a real MongoDB (ORDERS_TEST_MONGODB, a replica set): what the documents look like on the server and that
/// concurrent writers on one order or one key leave exactly one winner. How the listing walks its index differs by
/// engine: MongoEngineBehaviourTests.
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoConcurrencyTests
{
    private const int Parallel = 100;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(UnitOfWork.PerRequest, false)]
    [InlineData(UnitOfWork.PerRequest, true)]
    [InlineData(UnitOfWork.PerCall, false)]
    [InlineData(UnitOfWork.PerCall, true)]
    public async Task Parallel_transitions_on_one_order_have_exactly_one_winner_and_no_event_gap(UnitOfWork unitOfWork, bool withIfMatch)
    {
        await using var store = await MongoScratchStore.OpenAsync(o => o.UnitOfWork = unitOfWork);
        var order = await store.CreateOrderAsync();
        await TransitionRace.RunAsync(store.Store, order.Id, Parallel, withIfMatch);

        var stored = await store.RawDocumentAsync(order.Id);
        stored["version"].AsInt32.ShouldBe(2);
        stored["events"].AsBsonArray.Select(e => e["sequence"].AsInt32).ShouldBe([1, 2]);
    }

    /// <summary>
    /// Five keys in a row, each raced by <see cref="Parallel"/> creates. On FerretDB such a race deadlocked inside the
    /// server (DocumentDB's unique index is an exclusion constraint) and the store threw: the store now lets one create
    /// per key run at a time (OneKeyAtATime).
    /// </summary>
    [Theory]
    [InlineData(UnitOfWork.PerRequest)]
    [InlineData(UnitOfWork.PerCall)]
    public async Task Concurrent_creates_with_one_idempotency_key_make_one_order(UnitOfWork unitOfWork)
    {
        await using var store = await MongoScratchStore.OpenAsync(o => o.UnitOfWork = unitOfWork);
        await KeyedCreateRace.RunAsync(store.Store, (customer, ct) =>
            store.Raw.CountDocumentsAsync(new BsonDocument("customerId", customer), cancellationToken: ct), Parallel, rounds: 5);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task A_retried_create_with_the_same_id_is_replayed(bool withKey)
    {
        await using var store = await MongoScratchStore.OpenAsync();
        var order = TestOrders.New();
        var request = new NewOrder(order, withKey ? "key-" + Guid.NewGuid() : null, TestOrders.Hash("body"));

        (await store.Store.CreateAsync(request, Ct)).Outcome.ShouldBe(CreateOutcome.Created);
        var retried = await store.Store.CreateAsync(request, Ct);

        retried.Outcome.ShouldBe(CreateOutcome.Replayed);
        retried.Order!.Id.ShouldBe(order.Id);
        (await store.Raw.CountDocumentsAsync(new BsonDocument("_id", OrderBson.IdValue(order.Id)), cancellationToken: Ct)).ShouldBe(1);
    }
}

[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoDocumentTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task The_server_holds_uuid_decimal128_and_microsecond_longs_and_the_key_only_when_given()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        var order = TestOrders.New();
        await store.Store.CreateAsync(new NewOrder(order, "key-" + Guid.NewGuid(), "HASH"), Ct);
        var unkeyed = await store.CreateOrderAsync();

        var stored = await store.RawDocumentAsync(order.Id);
        stored["_id"].AsBsonBinaryData.SubType.ShouldBe(BsonBinarySubType.UuidStandard);
        stored["total"].BsonType.ShouldBe(BsonType.Decimal128);
        stored["lines"][0]["unitPrice"].AsDecimal128.ToString().ShouldBe("12.34");
        stored["createdAt"].AsInt64.ShouldBe(OrderBson.ToMicroseconds(order.CreatedAt));
        stored["keys"].ShouldBe(new BsonArray { new BsonDocument { { "key", stored["keys"][0]["key"] }, { "requestHash", "HASH" }, { "version", 1 }, { "at", OrderBson.ToMicroseconds(order.CreatedAt) } } });
        (await store.RawDocumentAsync(unkeyed.Id)).Contains("keys").ShouldBeFalse();
    }

    [Fact]
    public async Task The_schema_gate_creates_the_three_indexes_and_running_it_again_changes_nothing()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        await new MongoSchema(store.Raw).EnsureCreatedAsync(Ct); // a second service starting on the same database

        var indexes = await (await store.Raw.Indexes.ListAsync(Ct)).ToListAsync(Ct);

        indexes.Select(i => i["name"].AsString).Order().ShouldBe(["_id_", "customer_newest_first", "idempotency_keys", "idempotency_keys_at"]);
        var customer = indexes.Single(i => i["name"] == "customer_newest_first");
        customer["key"].ShouldBe(new BsonDocument { { "customerId", 1 }, { "createdAt", -1 }, { "_id", -1 } });
        var key = indexes.Single(i => i["name"] == "idempotency_keys");
        key["key"].ShouldBe(new BsonDocument("keys.key", 1));
        key["unique"].AsBoolean.ShouldBeTrue();
        key["partialFilterExpression"].ShouldBe(new BsonDocument("keys.key", new BsonDocument("$exists", true)));
        var age = indexes.Single(i => i["name"] == "idempotency_keys_at");
        age["key"].ShouldBe(new BsonDocument("keys.at", 1));
        age.Contains("expireAfterSeconds").ShouldBeFalse("not a TTL index: it would delete the orders");
        age["partialFilterExpression"].ShouldBe(new BsonDocument("keys.at", new BsonDocument("$exists", true)));
    }

    [Fact]
    public async Task A_transition_retried_by_the_driver_after_a_lost_reply_is_applied_once()
    {
        // The server applies the findAndModify, then answers with a retryable write-concern error, as if the reply
        // had been lost in a step-down. The driver retries with the same transaction number; the server recognizes
        // the retried write and returns the first result instead of running it again.
        var app = "retry-" + Guid.NewGuid().ToString("N")[..8];
        await using var store = await MongoScratchStore.OpenAsync(uri: u => u.ApplicationName = app);
        var order = await store.CreateOrderAsync();
        await using (await MongoTestServer.FailPointAsync(
            new BsonDocument("times", 1),
            new BsonDocument
            {
                { "failCommands", new BsonArray { "findAndModify" } },
                { "appName", app },
                { "writeConcernError", new BsonDocument { { "code", 91 }, { "codeName", "ShutdownInProgress" }, { "errmsg", "a reply lost in a step-down" } } },
            }))
        {
            var result = await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay, expectedVersion: 1), Ct);

            result.Outcome.ShouldBe(TransitionOutcome.Applied);
            result.Order!.Version.ShouldBe(2);
        }

        (await store.RawDocumentAsync(order.Id))["events"].AsBsonArray.Count.ShouldBe(2);
    }

    [Fact]
    public async Task Not_writable_primary_is_retried_within_the_bound_and_then_answered_503()
    {
        var app = "nwp-" + Guid.NewGuid().ToString("N")[..8];
        await using var store = await MongoScratchStore.OpenAsync(uri: u => u.ApplicationName = app);
        var order = await store.CreateOrderAsync();
        var failing = new BsonDocument { { "failCommands", new BsonArray { "findAndModify" } }, { "appName", app }, { "errorCode", 10107 } };

        // Twice: the driver's own retry fails too, the resilience pipeline's next attempt succeeds.
        await using (await MongoTestServer.FailPointAsync(new BsonDocument("times", 2), failing))
        {
            (await store.Resilient.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay, expectedVersion: 1), Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);
        }

        // Always: 503 (StoreUnavailableException) after the bounded retries, and nothing written.
        await using (await MongoTestServer.FailPointAsync(new BsonDocument("alwaysOn", true), failing))
        {
            await Should.ThrowAsync<StoreUnavailableException>(() => store.Resilient.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Ship, expectedVersion: 2), Ct));
        }

        (await store.RawDocumentAsync(order.Id))["version"].AsInt32.ShouldBe(2);
    }
}
