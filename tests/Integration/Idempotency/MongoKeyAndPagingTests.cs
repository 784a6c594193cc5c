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

namespace OrderService.Integration.Tests.Idempotency;

/// <summary>
/// Against a real MongoDB (skipped, with the reason, without one): where a transition's Idempotency-Key lives (in the
/// order, written by the same findOneAndUpdate as the event), that one key index spans orders, creates and transitions,
/// and what a keyed transition whose reply was lost gets. How a page's lookahead reads the customer index differs by
/// engine: MongoEngineBehaviourTests.
/// The behaviour every store shares (replays, 422, paging walks) is the conformance suite's (MongoConformance).
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoKeyAndPagingTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_keyed_transition_stores_its_key_with_the_new_version_in_the_order_and_reads_never_show_it()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        var order = await store.CreateOrderAsync();
        var key = NewKey();

        var paid = await store.Store.TransitionAsync(Keyed(order.Id, OrderAction.Pay, key), Ct);
        await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Ship), Ct); // unkeyed: adds no entry

        paid.Outcome.ShouldBe(TransitionOutcome.Applied);
        var stored = await store.RawDocumentAsync(order.Id);
        stored["keys"].ShouldBe(new BsonArray { new BsonDocument { { "key", key }, { "requestHash", TestOrders.Hash(key) }, { "version", 2 }, { "at", OrderBson.ToMicroseconds(paid.Order!.UpdatedAt) } } });
        stored["events"].AsBsonArray.Select(e => e["sequence"].AsInt32).ShouldBe([1, 2, 3]);
        paid.Order!.ShouldNotBeNull();
        (await store.Store.GetAsync(order.Id, Ct))!.Version.ShouldBe(3);
    }

    [Theory]
    [InlineData(UnitOfWork.PerRequest, false)]
    [InlineData(UnitOfWork.PerCall, true)]
    public async Task Fifty_concurrent_retries_with_one_key_apply_once_and_replay_the_rest(UnitOfWork unitOfWork, bool withIfMatch)
    {
        await using var store = await MongoScratchStore.OpenAsync(o => o.UnitOfWork = unitOfWork);
        var order = await store.CreateOrderAsync();
        var pay = Keyed(order.Id, OrderAction.Pay, NewKey()) with { ExpectedVersion = withIfMatch ? 1 : null };
        using var start = new ManualResetEventSlim();

        var attempts = Enumerable.Range(0, 50).Select(_ => Task.Run(async () =>
        {
            start.Wait(Ct);
            return await store.Store.TransitionAsync(pay, Ct);
        }, Ct)).ToArray();
        start.Set();
        var results = await Task.WhenAll(attempts);

        results.Count(r => r.Outcome == TransitionOutcome.Applied).ShouldBe(1);
        results.Where(r => r.Outcome != TransitionOutcome.Applied).ShouldAllBe(r => r.Outcome == TransitionOutcome.Replayed && r.Order!.Version == 2);
        var stored = await store.RawDocumentAsync(order.Id);
        stored["events"].AsBsonArray.Count.ShouldBe(2);
        stored["keys"].AsBsonArray.Count.ShouldBe(1);
    }

    [Fact]
    public async Task The_key_index_spans_orders_creates_and_transitions()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        var first = await store.CreateOrderAsync();
        var second = await store.CreateOrderAsync();
        var key = NewKey();
        (await store.Store.TransitionAsync(Keyed(first.Id, OrderAction.Pay, key), Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);

        // The same key on another order: the write fails on the unique index (E11000), nothing is written, 422.
        (await store.Store.TransitionAsync(Keyed(second.Id, OrderAction.Pay, key), Ct)).Outcome.ShouldBe(TransitionOutcome.KeyReusedWithDifferentRequest);
        (await store.Store.CreateAsync(new NewOrder(TestOrders.New(), key, TestOrders.Hash("create")), Ct)).Outcome.ShouldBe(CreateOutcome.KeyReusedWithDifferentRequest);

        // A create's key on a transition of its own order: another request (the hashes never collide), 422.
        var createKey = NewKey();
        var keyed = TestOrders.New();
        await store.Store.CreateAsync(new NewOrder(keyed, createKey, TestOrders.Hash("create")), Ct);
        (await store.Store.TransitionAsync(Keyed(keyed.Id, OrderAction.Pay, createKey), Ct)).Outcome.ShouldBe(TransitionOutcome.KeyReusedWithDifferentRequest);

        (await store.RawDocumentAsync(second.Id)).Contains("keys").ShouldBeFalse();
        (await store.RawDocumentAsync(second.Id))["version"].AsInt32.ShouldBe(1);
        (await store.RawDocumentAsync(keyed.Id))["version"].AsInt32.ShouldBe(1);
    }

    [Fact]
    public async Task A_keyed_transition_whose_reply_is_lost_is_rerun_by_the_pipeline_and_answered_as_a_replay()
    {
        // retryWrites=false takes the driver's own retry away, so the lost reply reaches the resilience pipeline: the
        // server applied the write, then answered with an error. The key makes the call rerun-safe (RerunRule.Of), and the
        // rerun finds the key: one event, and the client gets the step's answer, not a 409.
        var app = "lost-" + Guid.NewGuid().ToString("N")[..8];
        await using var store = await MongoScratchStore.OpenAsync(uri: u => { u.ApplicationName = app; u.RetryWrites = false; });
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
            var result = await store.Resilient.TransitionAsync(Keyed(order.Id, OrderAction.Pay, NewKey()), Ct);

            result.Outcome.ShouldBe(TransitionOutcome.Replayed);
            result.Order!.Version.ShouldBe(2);
        }

        (await store.RawDocumentAsync(order.Id))["events"].AsBsonArray.Count.ShouldBe(2);
    }

    private static string NewKey() => "key-" + Guid.NewGuid().ToString("N");

    private static TransitionCommand Keyed(Guid id, OrderAction action, string key) =>
        TestOrders.Command(id, action) with { IdempotencyKey = key, RequestHash = TestOrders.Hash(key) };
}
