using Npgsql;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Switches;

/// <summary>Each relational switch changes what reaches the database, and the store's telemetry shows it.</summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class SwitchEffectsTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite, UnitOfWork.PerRequest, 1)]
    [StoreData(Engine.Sqlite, UnitOfWork.PerCall, 2)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerRequest, 1)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerCall, 2)]
    public async Task Unit_of_work_sets_the_connections_a_transition_opens(Engine engine, UnitOfWork unitOfWork, int expected)
    {
        // Without group commit every SQLite write opens its own connection, as every PostgreSQL write does.
        await using var store = await stores.OpenAsync(engine, o => o.UnitOfWork = unitOfWork,
            sqlite: o => o.GroupCommit = false);
        var order = await store.CreateOrderAsync();
        using var recorder = new StoreTelemetryRecorder();

        var result = await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), Ct);

        result.Outcome.ShouldBe(TransitionOutcome.Applied);
        recorder.ConnectionsOpened.ShouldBe(expected);
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    public async Task PostgreSql_per_request_transition_is_one_command_carrying_write_and_read_back()
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql);
        var order = await store.CreateOrderAsync();
        using var recorder = new StoreTelemetryRecorder();

        var result = await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), Ct);

        result.Order!.Status.ShouldBe(OrderStatus.Paid);
        var sent = recorder.Commands.ShouldHaveSingleItem();
        sent.Sql.ShouldContain("WITH u AS (UPDATE orders");
        sent.Sql.ShouldContain("INSERT INTO order_events");
        sent.Sql.ShouldContain("json_agg");
    }

    /// <summary>
    /// A transition's write runs at the level asked; a create always runs as one implicit transaction
    /// (docs/isolation-and-durability.md: its decisions are unique and foreign keys, which hold at every level).
    /// </summary>
    [Theory]
    [StoreData(Engine.PostgreSql, WriteIsolation.ReadCommitted, "ReadCommitted", "ReadCommitted")]
    [StoreData(Engine.PostgreSql, WriteIsolation.RepeatableRead, "RepeatableRead", "ReadCommitted")]
    [StoreData(Engine.PostgreSql, WriteIsolation.Serializable, "Serializable", "ReadCommitted")]
    [StoreData(Engine.Sqlite, WriteIsolation.ReadCommitted, "Serializable", "Serializable")]
    [StoreData(Engine.Sqlite, WriteIsolation.RepeatableRead, "Serializable", "Serializable")]
    public async Task Write_isolation_in_force_is_reported_on_every_write(Engine engine, WriteIsolation isolation, string inForce, string createInForce)
    {
        await using var store = await stores.OpenAsync(engine, o => o.WriteIsolation = isolation);
        using var recorder = new StoreTelemetryRecorder();
        var order = await store.CreateOrderAsync();

        await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), Ct);

        recorder.Commands.Where(c => c.Operation is "create").Select(c => c.Isolation).ShouldHaveSingleItem().ShouldBe(createInForce);
        var writes = recorder.Commands.Where(c => c.Operation is "transition" or "transition.write").Select(c => c.Isolation).ToList();
        writes.ShouldNotBeEmpty();
        writes.ShouldAllBe(i => i == inForce);
    }

    /// <summary>
    /// The level really reaches PostgreSQL: a writer that waited on a row another transaction changed is
    /// re-checked under READ COMMITTED (a clean rejection), but fails with 40001 under REPEATABLE READ.
    /// </summary>
    [Theory]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    [InlineData(WriteIsolation.ReadCommitted, false)]
    [InlineData(WriteIsolation.RepeatableRead, true)]
    [InlineData(WriteIsolation.Serializable, true)]
    public async Task PostgreSql_write_isolation_decides_how_a_concurrent_update_ends(WriteIsolation isolation, bool serializationFailure)
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql, o => o.WriteIsolation = isolation);
        var order = await store.CreateOrderAsync();
        await using var first = await store.OpenDirectAsync();
        Task<TransitionResult>? pay = null;

        // The store's pay starts its snapshot while the first pay is uncommitted, then blocks on the row lock.
        (await HeldPay.HoldAsync(first, order.Id, async () =>
        {
            pay = store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), Ct);
            await Task.Delay(300, Ct);
        }, Ct, commit: true)).ShouldBeTrue();

        if (serializationFailure)
        {
            var failure = await Should.ThrowAsync<PostgresException>(() => pay!);
            failure.SqlState.ShouldBe(PostgresErrorCodes.SerializationFailure);
        }
        else
        {
            (await pay!).Outcome.ShouldBe(TransitionOutcome.IllegalFromStatus);
        }
    }

    [Theory]
    [StoreData(Engine.PostgreSql, ReadIsolation.ReadUncommitted, "ReadCommitted")]
    [StoreData(Engine.PostgreSql, ReadIsolation.ReadCommitted, "ReadCommitted")]
    [StoreData(Engine.Sqlite, ReadIsolation.ReadUncommitted, "ReadUncommitted")]
    [StoreData(Engine.Sqlite, ReadIsolation.ReadCommitted, "ReadCommitted")]
    public async Task Read_isolation_in_force_is_reported_on_reads(Engine engine, ReadIsolation isolation, string inForce)
    {
        await using var store = await stores.OpenAsync(engine, o => o.ReadIsolation = isolation);
        var order = await store.CreateOrderAsync();
        using var recorder = new StoreTelemetryRecorder();

        (await store.Store.GetAsync(order.Id, Ct)).ShouldNotBeNull();

        recorder.Commands.ShouldHaveSingleItem().Isolation.ShouldBe(inForce);
    }

    [Theory]
    [StoreData(Engine.Sqlite, BatchFilter.Json, "IN (SELECT value FROM json_each(@Ids))")]
    [StoreData(Engine.Sqlite, BatchFilter.InList, "IN (@Id0, @Id1, @Id2)")]
    [StoreData(Engine.PostgreSql, BatchFilter.Json, "= ANY(@Ids)")]
    [StoreData(Engine.PostgreSql, BatchFilter.InList, "IN (@Id0, @Id1, @Id2)")]
    public async Task Batch_filter_decides_how_the_ids_are_sent(Engine engine, BatchFilter filter, string expectedFilter)
    {
        await using var store = await stores.OpenAsync(engine, o => o.BatchFilter = filter);
        Guid[] ids = [(await store.CreateOrderAsync()).Id, (await store.CreateOrderAsync()).Id, Guid.CreateVersion7()];
        using var recorder = new StoreTelemetryRecorder();

        var found = await store.Store.GetManyAsync(ids, Ct).ToListAsync(Ct);

        found.Count.ShouldBe(2);
        var sent = recorder.Commands.ShouldHaveSingleItem();
        sent.Sql.ShouldContain(expectedFilter);
        (sent.Sql.Contains("json_each", StringComparison.Ordinal) || sent.Sql.Contains("ANY(", StringComparison.Ordinal)).ShouldBe(filter == BatchFilter.Json);
    }
}
