using MongoDB.Driver;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Switches;

/// <summary>
/// Each MongoDB switch changes what reaches the server, seen in the commands the driver reports (StoreTelemetry):
/// the write concern on every write, the read concern on the reads, the session of a request, the number of finds.
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoSwitchEffectTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData("1", false, null, new[] { "\"w\" : 1", "\"j\" : false" })]
    [InlineData("1", true, null, new[] { "\"w\" : 1", "\"j\" : true" })]
    [InlineData("majority", true, 1000, new[] { "\"w\" : \"majority\"", "\"j\" : true", "\"wtimeout\" : 1000" })]
    public async Task The_write_concern_keys_reach_every_write(string w, bool journal, int? wtimeout, string[] sent)
    {
        await using var store = await MongoScratchStore.OpenAsync(
            mongo: o => (o.W, o.Journal, o.WTimeoutMilliseconds) = (w, journal, wtimeout));
        using var recorder = new StoreTelemetryRecorder();
        var order = await store.CreateOrderAsync();
        await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay, expectedVersion: 1), Ct);

        var writes = recorder.Commands.Where(c => c.Operation is "insert" or "findAndModify").ToList();
        writes.Select(c => c.Operation).ShouldBe(["insert", "findAndModify"]);
        foreach (var fragment in sent)
        {
            writes.ShouldAllBe(c => c.Isolation.Contains(fragment));
        }
    }

    [Fact]
    public async Task Without_write_concern_keys_no_write_concern_is_sent_and_the_servers_default_applies()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        using var recorder = new StoreTelemetryRecorder();

        await store.CreateOrderAsync();

        recorder.Commands.Single(c => c.Operation == "insert").Isolation.ShouldStartWith("writeConcern=-");
    }

    [Theory]
    [InlineData(MongoReadConcern.Majority, "majority")]
    [InlineData(MongoReadConcern.Available, "available")]
    public async Task The_read_concern_key_reaches_the_reads(MongoReadConcern readConcern, string level)
    {
        await using var store = await MongoScratchStore.OpenAsync(mongo: o => o.ReadConcern = readConcern);
        var order = await store.CreateOrderAsync();
        using var recorder = new StoreTelemetryRecorder();

        await store.Store.GetAsync(order.Id, Ct);
        await store.Store.ListByCustomerAsync(order.CustomerId, null, 10, Ct).ToListAsync(Ct);

        // Three finds: the get, then the page's lookahead of positions (Limit + 1) and the page's orders.
        recorder.Commands.Where(c => c.Operation == "find").ShouldAllBe(c => c.Isolation.Contains($"\"level\" : \"{level}\""));
        recorder.Commands.Count(c => c.Operation == "find").ShouldBe(3);
    }

    [Theory]
    [InlineData(UnitOfWork.PerRequest, true)]
    [InlineData(UnitOfWork.PerCall, false)]
    public async Task Per_request_runs_a_rejected_transition_and_its_explaining_read_in_one_causal_session(UnitOfWork unitOfWork, bool causal)
    {
        await using var store = await MongoScratchStore.OpenAsync(o => o.UnitOfWork = unitOfWork);
        var order = await store.CreateOrderAsync();
        using var recorder = new StoreTelemetryRecorder();

        var result = await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Ship), Ct);

        result.Outcome.ShouldBe(TransitionOutcome.IllegalFromStatus);
        recorder.Commands.Select(c => c.Operation).ShouldBe(["findAndModify", "find"]);

        // The causal read names the write's cluster time, where the server keeps one (FerretDB sends none: MongoEngineBehaviourTests).
        var clusterTime = (await MongoEngine.DetectAsync()).ClusterTime;
        recorder.Commands[1].Isolation.Contains("afterClusterTime", StringComparison.Ordinal).ShouldBe(causal && clusterTime);
    }

    [Fact]
    public async Task A_create_is_one_insert_and_a_transition_one_findAndModify()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        using var recorder = new StoreTelemetryRecorder();

        var order = await store.CreateOrderAsync();
        await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), Ct);                      // the pipeline form
        await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Ship, expectedVersion: 2), Ct); // $set/$inc/$push

        recorder.Commands.Select(c => c.Operation).ShouldBe(["insert", "findAndModify", "findAndModify"]);
        recorder.Commands.ShouldAllBe(c => c.Sql.EndsWith(" orders", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(BatchFilter.Json, 1)]
    [InlineData(BatchFilter.InList, 3)]
    public async Task The_batch_filter_sets_how_many_finds_a_batch_of_2500_ids_sends(BatchFilter filter, int finds)
    {
        await using var store = await MongoScratchStore.OpenAsync(o => o.BatchFilter = filter);
        var orders = new List<Order>();
        for (var i = 0; i < 3; i++)
        {
            orders.Add(await store.CreateOrderAsync());
        }

        var ids = orders.Select(o => o.Id).Concat(Enumerable.Range(0, 2497).Select(_ => Guid.CreateVersion7())).ToArray();
        using var recorder = new StoreTelemetryRecorder();

        var found = await store.Store.GetManyAsync(ids, Ct).ToListAsync(Ct);

        found.Select(o => o.Id).Order().ShouldBe(orders.Select(o => o.Id).Order());
        recorder.Commands.Count(c => c.Operation == "find").ShouldBe(finds);
    }

    [Theory]
    [InlineData(ReadPreferenceMode.Secondary, 2, 2)]
    [InlineData(ReadPreferenceMode.SecondaryPreferred, 2, 2)]
    [InlineData(ReadPreferenceMode.Primary, 1, 1)]
    public async Task A_read_that_may_go_to_a_secondary_rereads_a_miss_on_the_primary(ReadPreferenceMode preference, int findsForAMissingGet, int findsForAHalfMissingBatch)
    {
        // One server here (FerretDB, or a one-member set): a secondary read finds what the primary has, so what shows
        // the fallback is the extra find a miss sends, and only a miss: a replica set's lagging secondary is not at hand.
        await using var store = await MongoScratchStore.OpenAsync(mongo: o => o.ReadPreference = preference);
        var order = await store.CreateOrderAsync();
        using var recorder = new StoreTelemetryRecorder();

        (await store.Store.GetAsync(order.Id, Ct)).ShouldNotBeNull();
        recorder.Commands.Count(c => c.Operation == "find").ShouldBe(1, "a hit is answered by the first read");

        recorder.Reset();
        (await store.Store.GetAsync(Guid.CreateVersion7(), Ct)).ShouldBeNull();
        recorder.Commands.Count(c => c.Operation == "find").ShouldBe(findsForAMissingGet);

        recorder.Reset();
        var found = await store.Store.GetManyAsync([order.Id, Guid.CreateVersion7()], Ct).ToListAsync(Ct);
        found.Select(o => o.Id).ShouldBe([order.Id]);
        recorder.Commands.Count(c => c.Operation == "find").ShouldBe(findsForAHalfMissingBatch);
    }
}
