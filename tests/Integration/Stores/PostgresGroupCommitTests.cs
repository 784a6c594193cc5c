using Npgsql;
using OrderService.Data;
using OrderService.Data.Orders;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Stores;

/// <summary>
/// PostgreSQL's group commit (Store:PostgreSql:GroupCommit), seen from the database: which transaction wrote each row
/// (its xmin), and what a group does when one of its statements fails.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class PostgresGroupCommitTests(RelationalStores stores)
{
    private const int Writes = 64;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    /// <summary>
    /// Concurrent creates and then pays share transactions when the switch is on (far fewer distinct xmin than rows), and
    /// each commits alone when it is off (one transaction per row): the switch changes what the server does.
    /// </summary>
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task Concurrent_writes_share_transactions_only_with_group_commit(bool groupCommit)
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql, o => o.PostgreSql.GroupCommit = groupCommit);
        var orders = Enumerable.Range(0, Writes).Select(_ => TestOrders.New()).ToArray();

        // Started without awaiting in between: every call queues before the writers drain the queue.
        var creates = await Task.WhenAll(orders.Select(o => store.Store.CreateAsync(new NewOrder(o, null, TestOrders.Hash(o.Id.ToString())), Ct)));
        creates.ShouldAllBe(c => c.Outcome == CreateOutcome.Created);
        var pays = await Task.WhenAll(orders.Select(o => store.Store.TransitionAsync(TestOrders.Command(o.Id, OrderAction.Pay), Ct)));
        pays.ShouldAllBe(p => p.Outcome == TransitionOutcome.Applied && p.Order!.Version == 2 && p.Order.Events.Count == 2);

        var ids = orders.Select(o => o.Id).ToArray();
        var createTransactions = await store.ScalarAsync<long>("SELECT count(DISTINCT xmin::text) FROM order_events WHERE sequence = 1 AND order_id = ANY(@ids)", new { ids });
        var payTransactions = await store.ScalarAsync<long>("SELECT count(DISTINCT xmin::text) FROM order_events WHERE sequence = 2 AND order_id = ANY(@ids)", new { ids });
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

        // Every order whole, however it was grouped: its lines, its two events, status Paid.
        (await store.ScalarAsync<long>("SELECT count(*) FROM order_lines WHERE order_id = ANY(@ids)", new { ids })).ShouldBe(2L * Writes);
        (await store.ScalarAsync<long>("SELECT count(*) FROM orders WHERE status = 'Paid' AND version = 2 AND id = ANY(@ids)", new { ids })).ShouldBe(Writes);
    }

    /// <summary>
    /// One create that the server rejects (a trigger raises) aborts its whole group; the others of that group must still be
    /// created, each once, and the rejected one must fail alone with the server's error.
    /// </summary>
    [Fact]
    public async Task A_statement_the_server_rejects_fails_alone_and_the_rest_of_its_group_commits()
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql);
        await store.ExecuteAsync("""
            CREATE FUNCTION reject_customer() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.customer_id = 'rejected' THEN RAISE EXCEPTION 'rejected by the test'; END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER reject_customer BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION reject_customer();
            """);
        var orders = Enumerable.Range(0, Writes).Select(i => TestOrders.New(i == Writes / 2 ? "rejected" : null)).ToArray();

        var attempts = orders.Select(o => store.Store.CreateAsync(new NewOrder(o, null, TestOrders.Hash(o.Id.ToString())), Ct)).ToArray();
        await Should.ThrowAsync<PostgresException>(() => attempts[Writes / 2]);
        var created = await Task.WhenAll(attempts.Where((_, i) => i != Writes / 2));

        created.ShouldAllBe(c => c.Outcome == CreateOutcome.Created);
        var ids = orders.Select(o => o.Id).ToArray();
        (await store.ScalarAsync<long>("SELECT count(*) FROM orders WHERE id = ANY(@ids)", new { ids })).ShouldBe(Writes - 1);
        (await store.ScalarAsync<long>("SELECT count(*) FROM order_events WHERE order_id = ANY(@ids)", new { ids })).ShouldBe(Writes - 1);
        (await store.ScalarAsync<long>("SELECT count(*) FROM orders WHERE customer_id = 'rejected'")).ShouldBe(0);
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
}
