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

namespace OrderService.Integration.Tests.Engines;

/// <summary>
/// Where the two engines behind ORDERS_TEST_MONGODB really differ, stated, never skipped: each test asks which engine
/// answers (<see cref="MongoEngine"/>: buildInfo names FerretDB) and asserts THAT engine's behaviour; the test name
/// says both, and any other engine (a standalone mongod) fails the test. MongoDB (a replica set) has transactions,
/// cluster time, DuplicateKey for every unique clash and a query planner of its own; FerretDB on DocumentDB is a
/// standalone without transactions or cluster time, reports a unique clash inside findAndModify in PostgreSQL's words,
/// and explains with PostgreSQL's plan. Either way the store gives the same answers (docs/stores/ferretdb.md).
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoEngineBehaviourTests : IAsyncLifetime
{
    private MongoEngine _engine = null!;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public async ValueTask InitializeAsync()
    {
        await MongoTestServer.RequireServerAsync();
        _engine = await MongoEngine.DetectAsync();
        TestContext.Current.SendDiagnosticMessage($"MongoDB protocol engine: {_engine}");
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    [Fact]
    public async Task A_unique_clash_inside_findAndModify_is_DuplicateKey_11000_on_MongoDB_and_InternalError_1_exclusion_constraint_on_FerretDB()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        var holder = await store.CreateOrderAsync();
        var other = await store.CreateOrderAsync();
        var key = "key-" + Guid.NewGuid().ToString("N");
        (await store.Store.TransitionAsync(Keyed(holder.Id, key), Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);

        // The store's own update: push the held key onto another order (the filter only says "this order lacks it").
        var clash = await Should.ThrowAsync<MongoCommandException>(() => store.Raw.FindOneAndUpdateAsync(
            OrderDefinitions.ById(other.Id), OrderDefinitions.Transition(Keyed(other.Id, key)), cancellationToken: Ct));

        TestContext.Current.SendDiagnosticMessage($"{_engine}: {clash.Code} {clash.CodeName} {clash.ErrorMessage}");
        Either(
            mongoDb: () => clash.Code.ShouldBe(MongoUniqueClash.DuplicateKey),
            ferretDb: () =>
            {
                clash.Code.ShouldBe(MongoUniqueClash.InternalError);
                clash.CodeName.ShouldBe("InternalError");
                clash.ErrorMessage.ShouldStartWith(MongoUniqueClash.ExclusionViolation);
            });
        MongoUniqueClash.Is(clash).ShouldBeTrue("the store must see a unique clash in either answer");
        MongoTransientFaults.Instance.Classify(clash).ShouldBe(StoreFault.Permanent, "a clash does not clear on retry");

        // A plain insert clash is 11000 on both, and the store answers either clash as the key's reuse (422), writing nothing.
        var insert = await Should.ThrowAsync<MongoWriteException>(() => store.Raw.InsertOneAsync(new BsonDocument("_id", OrderBson.IdValue(holder.Id)), cancellationToken: Ct));
        insert.WriteError.Code.ShouldBe(MongoUniqueClash.DuplicateKey);
        (await store.Store.TransitionAsync(Keyed(other.Id, key), Ct)).Outcome.ShouldBe(TransitionOutcome.KeyReusedWithDifferentRequest);
        (await store.RawDocumentAsync(other.Id))["version"].AsInt32.ShouldBe(1);
    }

    [Fact]
    public async Task Transactions_run_on_MongoDB_and_FerretDB_has_no_commitTransaction()
    {
        using var client = MongoTestServer.Client();
        var admin = client.GetDatabase("admin");
        if (_engine.Kind == MongoEngineKind.FerretDb)
        {
            var missing = await Should.ThrowAsync<MongoCommandException>(() => admin.RunCommandAsync<BsonDocument>(new BsonDocument("commitTransaction", 1), cancellationToken: Ct));
            missing.Code.ShouldBe(59); // CommandNotFound
            _engine.Transactions.ShouldBeFalse();
            return;
        }

        Either(mongoDb: () => _engine.Transactions.ShouldBeTrue(), ferretDb: () => { });
        await using var store = await MongoScratchStore.OpenAsync();
        using var session = await client.StartSessionAsync(cancellationToken: Ct);
        session.StartTransaction();
        await store.Raw.InsertOneAsync(session, new BsonDocument("_id", "in-a-transaction"), cancellationToken: Ct);
        (await store.Raw.CountDocumentsAsync(new BsonDocument("_id", "in-a-transaction"), cancellationToken: Ct)).ShouldBe(0);
        await session.AbortTransactionAsync(Ct);
        (await store.Raw.CountDocumentsAsync(new BsonDocument("_id", "in-a-transaction"), cancellationToken: Ct)).ShouldBe(0);
    }

    [Fact]
    public async Task A_causal_read_names_afterClusterTime_on_MongoDB_and_FerretDB_keeps_no_cluster_time()
    {
        await using var store = await MongoScratchStore.OpenAsync(o => o.UnitOfWork = UnitOfWork.PerRequest);
        var order = await store.CreateOrderAsync();
        using var recorder = new StoreTelemetryRecorder();

        (await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Ship), Ct)).Outcome.ShouldBe(TransitionOutcome.IllegalFromStatus);

        var explaining = recorder.Commands.Single(c => c.Operation == "find").Isolation;
        Either(
            mongoDb: () =>
            {
                _engine.ClusterTime.ShouldBeTrue();
                explaining.ShouldContain("afterClusterTime");
            },
            ferretDb: () =>
            {
                _engine.ClusterTime.ShouldBeFalse("FerretDB sends no $clusterTime");
                explaining.ShouldNotContain("afterClusterTime");
            });
    }

    [Fact]
    public async Task The_listing_walks_the_customer_index_unsorted_on_MongoDB_and_PostgreSQL_sorts_an_index_scan_on_FerretDB()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        var customer = "cust-" + Guid.NewGuid().ToString("N")[..12];
        for (var i = 0; i < 5; i++)
        {
            await store.CreateOrderAsync(customer);
        }

        // Other customers' orders, so that a cost-based planner (PostgreSQL's) prefers the index to a scan of 5 rows.
        await store.Raw.InsertManyAsync(Enumerable.Range(0, 2000).Select(i => new BsonDocument
        {
            { OrderBson.Id, OrderBson.IdValue(Guid.CreateVersion7()) },
            { OrderBson.CustomerId, $"filler-{i % 400}" },
            { OrderBson.CreatedAt, (long)i },
        }), cancellationToken: Ct);
        var first = await store.Store.ListByCustomerAsync(new CustomerOrdersQuery(customer, null, 2), Ct);
        var query = new CustomerOrdersQuery(customer, null, 2, first.Next!.Value);
        var filter = OrderDefinitions.PagePositions(query).Render(new RenderArgs<BsonDocument>(store.Raw.DocumentSerializer, store.Raw.Settings.SerializerRegistry));

        var explain = await store.Raw.Database.RunCommandAsync<BsonDocument>(new BsonDocument("explain", new BsonDocument
        {
            { "find", "orders" },
            { "filter", filter },
            { "projection", new BsonDocument { { "_id", 1 }, { "createdAt", 1 } } },
            { "sort", new BsonDocument { { "createdAt", -1 }, { "_id", -1 } } },
            { "limit", 3 },
        }), cancellationToken: Ct);

        var planner = explain["queryPlanner"].AsBsonDocument;
        TestContext.Current.SendDiagnosticMessage($"{_engine}: {planner.ToJson()}");
        Either(
            mongoDb: () =>
            {
                var plan = planner["winningPlan"].ToJson();
                plan.ShouldContain("customer_newest_first");
                plan.ShouldNotContain("\"SORT\"");
                plan.ShouldNotContain("\"FETCH\"", customMessage: "the positions come from the index alone");
            },
            ferretDb: () =>
            {
                planner.Contains("winningPlan").ShouldBeFalse();
                var plan = planner["Plan"].ToJson();
                plan.ShouldContain("\"Index Name\" : \"customer_newest_first\"");
                plan.ShouldContain("\"Node Type\" : \"Sort\"", customMessage: "DocumentDB finds the customer's rows by the index, then PostgreSQL sorts them");
            });
    }

    /// <summary>Runs the assertion of the engine at hand; any other engine fails, naming itself.</summary>
    private void Either(Action mongoDb, Action ferretDb)
    {
        switch (_engine.Kind)
        {
            case MongoEngineKind.MongoDb:
                mongoDb();
                break;
            case MongoEngineKind.FerretDb:
                ferretDb();
                break;
            default:
                Assert.Fail($"{_engine} is neither a MongoDB replica set (or mongos) nor FerretDB: these tests state those two engines' behaviour.");
                break;
        }
    }

    private static TransitionCommand Keyed(Guid id, string key) =>
        TestOrders.Command(id, OrderAction.Pay) with { IdempotencyKey = key, RequestHash = TestOrders.Hash(key) };
}
