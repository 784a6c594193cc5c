using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Isolation;

/// <summary>
/// Store:ReadIsolation=ReadUncommitted is the seed's NOLOCK: on SQLite a reader really sees another
/// connection's uncommitted write (here a payment that is then declined and rolled back). By default,
/// and always on PostgreSQL, it does not.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class DirtyReadTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite, ReadIsolation.ReadUncommitted, true, OrderStatus.Paid)]
    [StoreData(Engine.Sqlite, ReadIsolation.ReadUncommitted, false, OrderStatus.Paid)]
    [StoreData(Engine.Sqlite, ReadIsolation.ReadCommitted, true, OrderStatus.Created)]
    [StoreData(Engine.Sqlite, ReadIsolation.ReadCommitted, false, OrderStatus.Created)]
    [StoreData(Engine.PostgreSql, ReadIsolation.ReadUncommitted, false, OrderStatus.Created)]
    [StoreData(Engine.PostgreSql, ReadIsolation.ReadCommitted, false, OrderStatus.Created)]
    public async Task A_read_during_an_uncommitted_payment_sees(Engine engine, ReadIsolation isolation, bool groupCommit, OrderStatus seen)
    {
        await using var store = await stores.OpenAsync(engine, o => { o.ReadIsolation = isolation; o.Sqlite.GroupCommit = groupCommit; });
        var order = await store.CreateOrderAsync();
        var written = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var decision = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);

        // Without group commit the SQLite write runs on the calling thread: start it on another one.
        var pay = Task.Run(() => store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), async _ =>
        {
            written.SetResult();
            return await decision.Task;
        }, Ct), Ct);
        await written.Task.WaitAsync(TimeSpan.FromSeconds(10), Ct);

        var during = await store.Store.GetAsync(order.Id, Ct);
        decision.SetResult(false);

        (await pay).Outcome.ShouldBe(TransitionOutcome.Declined);
        during!.Status.ShouldBe(seen);
        var after = await store.Store.GetAsync(order.Id, Ct);
        after!.Status.ShouldBe(OrderStatus.Created);
        after.Version.ShouldBe(1);
        after.Events.Count.ShouldBe(1);
    }

    /// <summary>SQLite's one writer thread lends its connection to a held pay: the gateway's decision runs elsewhere, and later writes wait their turn.</summary>
    [Theory]
    [Trait(StoreTraits.Store, StoreTraits.SQLite)]
    [InlineData(StoreLayout.Relational)]
    [InlineData(StoreLayout.Document)]
    public async Task A_held_payment_is_decided_off_the_SQLite_writer_thread(StoreLayout layout)
    {
        await using var store = await stores.OpenAsync(Engine.Sqlite, o => o.Sqlite.GroupCommit = true, layout: layout);
        var order = await store.CreateOrderAsync();
        var other = await store.CreateOrderAsync();
        var deciding = new TaskCompletionSource<string?>(TaskCreationOptions.RunContinuationsAsynchronously);
        var decision = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);

        var pay = store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Pay), async _ =>
        {
            deciding.SetResult(Thread.CurrentThread.Name);
            return await decision.Task;
        }, Ct);
        (await deciding.Task.WaitAsync(TimeSpan.FromSeconds(10), Ct)).ShouldNotBe("sqlite-group-commit");
        var queued = store.Store.TransitionAsync(TestOrders.Command(other.Id, OrderAction.Pay), Ct);
        await Task.Delay(200, Ct);
        queued.IsCompleted.ShouldBeFalse("SQLite has one writer: a write behind a held payment waits for it");

        decision.SetResult(true);
        (await pay).Outcome.ShouldBe(TransitionOutcome.Applied);
        (await queued.WaitAsync(TimeSpan.FromSeconds(10), Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);
    }
}
