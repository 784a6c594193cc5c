using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Atomicity;

/// <summary>
/// A failure between the status update and the event insert leaves nothing half-written. No hook: a
/// row planted in order_events takes the next sequence, so the store's event insert really fails
/// after (or with) its update; the order must keep its status and version.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class AtomicityTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite, UnitOfWork.PerRequest, true, WriteIsolation.ReadCommitted)]
    [StoreData(Engine.Sqlite, UnitOfWork.PerCall, true, WriteIsolation.ReadCommitted)]
    [StoreData(Engine.Sqlite, UnitOfWork.PerRequest, false, WriteIsolation.ReadCommitted)]
    [StoreData(Engine.Sqlite, UnitOfWork.PerCall, false, WriteIsolation.ReadCommitted)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerRequest, true, WriteIsolation.ReadCommitted)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerCall, true, WriteIsolation.ReadCommitted)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerRequest, true, WriteIsolation.Serializable)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerCall, true, WriteIsolation.Serializable)]
    public async Task A_failing_event_insert_leaves_no_status_change(Engine engine, UnitOfWork unitOfWork, bool groupCommit, WriteIsolation isolation)
    {
        await using var store = await stores.OpenAsync(engine, o =>
        {
            o.UnitOfWork = unitOfWork;
            o.WriteIsolation = isolation;
        }, sqlite: o => o.GroupCommit = groupCommit);
        var order = await store.CreateOrderAsync();
        var planted = engine == Engine.Sqlite
            ? "INSERT INTO order_events VALUES (@Id, 2, 'Planted', '2025-01-01T00:00:00.000000Z', '{}')"
            : "INSERT INTO order_events VALUES (@Id, 2, 'Planted', now(), '{}')";
        await store.ExecuteAsync(planted, new { Id = store.Id(order.Id) });

        await Should.ThrowAsync<Exception>(() => store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), Ct));

        var row = (await store.QueryAsync<(string Status, long Version)>("SELECT status, version FROM orders WHERE id = @Id", new { Id = store.Id(order.Id) })).Single();
        row.Status.ShouldBe(nameof(OrderStatus.Created));
        row.Version.ShouldBe(1);
        var events = await store.QueryAsync<string>("SELECT type FROM order_events WHERE order_id = @Id ORDER BY sequence", new { Id = store.Id(order.Id) });
        events.ShouldBe([Transitions.CreatedEventType, "Planted"]);

        // The store is still healthy: once the planted row goes, the same transition applies.
        await store.ExecuteAsync("DELETE FROM order_events WHERE order_id = @Id AND sequence = 2", new { Id = store.Id(order.Id) });
        var retried = await store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), Ct);
        retried.Outcome.ShouldBe(TransitionOutcome.Applied);
        retried.Order!.Events.Select(e => e.Sequence).ShouldBe([1, 2]);
    }
}
