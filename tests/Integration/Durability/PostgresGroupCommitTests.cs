using System.Data.Common;
using Npgsql;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Durability;

/// <summary>
/// PostgreSQL's group commit (Store:PostgreSql:GroupCommit), seen from the database: which transaction wrote each row
/// (its xmin), and what a group does when one of its statements fails.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresGroupCommitTests(RelationalStores stores)
{
    private const int Writes = 64;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    /// <summary>
    /// Concurrent creates and then pays share transactions when the switch is on (far fewer distinct xmin than rows), and
    /// each commits alone when it is off (one transaction per row), on both layouts: the switch changes what the server does.
    /// </summary>
    [Theory]
    [StoreData(StoreLayout.Relational, true)]
    [StoreData(StoreLayout.Relational, false)]
    [StoreData(StoreLayout.Document, true)]
    [StoreData(StoreLayout.Document, false)]
    public async Task Concurrent_writes_share_transactions_only_with_group_commit(StoreLayout layout, bool groupCommit)
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql, postgres: o => o.GroupCommit = groupCommit,
            layout: layout);
        var orders = Enumerable.Range(0, Writes).Select(_ => TestOrders.New()).ToArray();
        var ids = orders.Select(o => o.Id).ToArray();

        // Started without awaiting in between: every call queues before the writers drain the queue.
        var creates = await Task.WhenAll(orders.Select(o => store.Store.CreateAsync(new NewOrder(o, null, TestOrders.Hash(o.Id.ToString())), Ct)));
        creates.ShouldAllBe(c => c.Outcome == CreateOutcome.Created);
        var createTransactions = await TransactionsThatWroteAsync(store, layout, ids, version: 1);
        var pays = await Task.WhenAll(orders.Select(o => store.Store.TransitionAsync(TestOrders.Command(o.Id, OrderAction.Pay), Ct)));
        pays.ShouldAllBe(p => p.Outcome == TransitionOutcome.Applied && p.Order!.Version == 2 && p.Order.Events.Count == 2);
        var payTransactions = await TransactionsThatWroteAsync(store, layout, ids, version: 2);

        if (groupCommit)
        {
            createTransactions.ShouldBeLessThan(Writes / 2);
            payTransactions.ShouldBeLessThan(Writes / 2);
        }
        else
        {
            createTransactions.ShouldBe(Writes);
            payTransactions.ShouldBe(Writes);
        }

        // Every order whole, however it was grouped: status Paid at version 2 with its two events and its lines.
        foreach (var order in orders)
        {
            var stored = (await store.Store.GetAsync(order.Id, Ct))!;
            stored.Status.ShouldBe(OrderStatus.Paid);
            stored.Events.Select(e => e.Sequence).ShouldBe([1, 2]);
            stored.Lines.Count.ShouldBe(2);
        }
    }

    /// <summary>The transactions that wrote the orders' rows at <paramref name="version"/>: their event of that sequence, or their document.</summary>
    private static Task<long> TransactionsThatWroteAsync(OpenStore store, StoreLayout layout, Guid[] ids, int version) => layout == StoreLayout.Relational
        ? store.ScalarAsync<long>("SELECT count(DISTINCT xmin::text) FROM order_events WHERE sequence = @version AND order_id = ANY(@ids)", new { version, ids })
        : store.ScalarAsync<long>("SELECT count(DISTINCT xmin::text) FROM order_documents WHERE version = @version AND id = ANY(@ids)", new { version, ids });

    /// <summary>
    /// One create that the server rejects (a trigger raises) aborts its whole group; the others of that group must still be
    /// created, each once, and the rejected one must fail alone with the server's error. The one writer is held on a locked
    /// row while all 64 creates queue, so they form ONE group: after its rejection every create commits on its own (64 - 1
    /// transactions), which is the fallback itself, not a lucky grouping.
    /// </summary>
    [Fact]
    public async Task A_statement_the_server_rejects_fails_alone_and_the_rest_of_its_group_commits()
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql, postgres: o => o.GroupCommitWriters = 1);
        await store.ExecuteAsync("""
            CREATE FUNCTION reject_customer() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.customer_id = 'rejected' THEN RAISE EXCEPTION 'rejected by the test'; END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER reject_customer BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION reject_customer();
            """);
        var locked = await store.CreateOrderAsync();
        var orders = Enumerable.Range(0, Writes).Select(i => TestOrders.New(i == Writes / 2 ? "rejected" : null)).ToArray();

        Task<CreateResult>[] attempts;
        await using (var holder = await LockRowAsync(store, locked.Id))
        {
            var held = store.Store.TransitionAsync(TestOrders.Command(locked.Id, OrderAction.Pay), Ct);
            await WaitForLockWaitersAsync(store, 1);
            attempts = orders.Select(o => store.Store.CreateAsync(new NewOrder(o, null, TestOrders.Hash(o.Id.ToString())), Ct)).ToArray();
            await holder.DisposeAsync();
            (await held).Outcome.ShouldBe(TransitionOutcome.Applied);
        }

        await Should.ThrowAsync<PostgresException>(() => attempts[Writes / 2]);
        var created = await Task.WhenAll(attempts.Where((_, i) => i != Writes / 2));

        created.ShouldAllBe(c => c.Outcome == CreateOutcome.Created);
        var ids = orders.Select(o => o.Id).ToArray();
        (await store.ScalarAsync<long>("SELECT count(*) FROM orders WHERE id = ANY(@ids)", new { ids })).ShouldBe(Writes - 1);
        (await store.ScalarAsync<long>("SELECT count(*) FROM order_events WHERE order_id = ANY(@ids)", new { ids })).ShouldBe(Writes - 1);
        (await store.ScalarAsync<long>("SELECT count(*) FROM orders WHERE customer_id = 'rejected'")).ShouldBe(0);
        (await TransactionsThatWroteAsync(store, StoreLayout.Relational, ids, version: 1)).ShouldBe(Writes - 1);
    }

    /// <summary>Store:PostgreSql:GroupCommitMaxBatch=1 leaves one write per group: concurrent creates commit one by one.</summary>
    [Fact]
    public async Task A_group_carries_at_most_the_configured_number_of_writes()
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql, postgres: o => o.GroupCommitMaxBatch = 1);
        var orders = Enumerable.Range(0, Writes).Select(_ => TestOrders.New()).ToArray();

        var creates = await Task.WhenAll(orders.Select(o => store.Store.CreateAsync(new NewOrder(o, null, TestOrders.Hash(o.Id.ToString())), Ct)));

        creates.ShouldAllBe(c => c.Outcome == CreateOutcome.Created);
        (await TransactionsThatWroteAsync(store, StoreLayout.Relational, orders.Select(o => o.Id).ToArray(), version: 1)).ShouldBe(Writes);
    }

    /// <summary>
    /// One Idempotency-Key sent with pays of many orders at once: in a group, the second key insert is a unique violation
    /// that aborts the group. Exactly one pay applies; every other answers that the key is taken, and writes nothing.
    /// </summary>
    [Fact]
    public async Task One_key_on_many_orders_at_once_applies_once_and_the_rest_of_the_group_is_unharmed()
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql);
        var orders = new List<Order>();
        for (var i = 0; i < 16; i++)
        {
            orders.Add(await store.CreateOrderAsync());
        }

        var bystanders = new List<Order>();
        for (var i = 0; i < 16; i++)
        {
            bystanders.Add(await store.CreateOrderAsync());
        }

        var keyed = orders.Select(o => store.Store.TransitionAsync(
            TestOrders.Command(o.Id, OrderAction.Pay) with { IdempotencyKey = "one-key", RequestHash = TestOrders.Hash(o.Id.ToString()) }, Ct));
        var plain = bystanders.Select(o => store.Store.TransitionAsync(TestOrders.Command(o.Id, OrderAction.Pay), Ct));
        var results = await Task.WhenAll(keyed.Concat(plain));

        results.Take(16).Count(r => r.Outcome == TransitionOutcome.Applied).ShouldBe(1);
        results.Take(16).Count(r => r.Outcome == TransitionOutcome.KeyReusedWithDifferentRequest).ShouldBe(15);
        results.Skip(16).ShouldAllBe(r => r.Outcome == TransitionOutcome.Applied);
        var ids = orders.Select(o => o.Id).ToArray();
        (await store.ScalarAsync<long>("SELECT count(*) FROM order_events WHERE sequence = 2 AND order_id = ANY(@ids)", new { ids })).ShouldBe(1);
        (await store.ScalarAsync<long>("SELECT count(*) FROM orders WHERE status = 'Paid' AND id = ANY(@ids)", new { ids })).ShouldBe(1);
    }

    /// <summary>
    /// A write whose caller gave up while it still waited in the queue (both writers busy with groups that wait on a row
    /// lock) is answered as cancelled at once, and is never sent: its order does not exist after the queue drained.
    /// </summary>
    [Fact]
    public async Task A_write_abandoned_while_queued_is_never_sent()
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql, postgres: o => o.GroupCommitWriters = 2);
        var locked = await store.CreateOrderAsync();
        await using var holder = await LockRowAsync(store, locked.Id);

        // One group per writer, each waiting on the locked row.
        var first = store.Store.TransitionAsync(TestOrders.Command(locked.Id, OrderAction.Pay), Ct);
        await WaitForLockWaitersAsync(store, 1);
        var second = store.Store.TransitionAsync(TestOrders.Command(locked.Id, OrderAction.Cancel), Ct);
        await WaitForLockWaitersAsync(store, 2);

        var abandoned = TestOrders.New();
        using var giveUp = new CancellationTokenSource();
        var create = store.Store.CreateAsync(new NewOrder(abandoned, null, TestOrders.Hash(abandoned.Id.ToString())), giveUp.Token);
        await giveUp.CancelAsync();
        await Should.ThrowAsync<OperationCanceledException>(() => create);

        await holder.DisposeAsync();
        var waited = await Task.WhenAll(first, second);
        waited.ShouldContain(r => r.Outcome == TransitionOutcome.Applied);
        var after = await store.CreateOrderAsync();
        (await store.ScalarAsync<long>("SELECT count(*) FROM orders WHERE id = @Id", new { abandoned.Id })).ShouldBe(0);
        (await store.ScalarAsync<long>("SELECT count(*) FROM orders WHERE id = @Id", new { after.Id })).ShouldBe(1);
    }

    /// <summary>Holds order <paramref name="id"/>'s row lock (SELECT ... FOR UPDATE in an open transaction) until disposed.</summary>
    private static async Task<DbConnection> LockRowAsync(OpenStore store, Guid id)
    {
        var holder = await store.OpenDirectAsync();
        var transaction = await holder.BeginTransactionAsync(Ct);
        await using var lockRow = holder.CreateCommand();
        lockRow.Transaction = transaction;
        lockRow.CommandText = $"SELECT 1 FROM orders WHERE id = '{id}' FOR UPDATE";
        await lockRow.ExecuteScalarAsync(Ct);
        return holder;
    }

    private static async Task WaitForLockWaitersAsync(OpenStore store, int waiters)
    {
        var database = new NpgsqlConnectionStringBuilder(store.ConnectionString).Database;
        for (var attempt = 0; attempt < 200; attempt++)
        {
            var waiting = await store.ScalarAsync<long>(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = @database AND wait_event_type = 'Lock'", new { database });
            if (waiting >= waiters)
            {
                return;
            }

            await Task.Delay(25, Ct);
        }

        throw new TimeoutException($"Fewer than {waiters} statements waited on the row lock.");
    }
}
