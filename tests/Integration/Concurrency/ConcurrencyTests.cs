using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Concurrency;

/// <summary>Optimistic concurrency and idempotent creates under real contention, in both units of work.</summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class ConcurrencyTests(RelationalStores stores)
{
    private const int Parallel = 100;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite, UnitOfWork.PerRequest, false)]
    [StoreData(Engine.Sqlite, UnitOfWork.PerCall, true)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerRequest, false)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerRequest, true)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerCall, false)]
    public async Task Parallel_transitions_on_one_order_have_exactly_one_winner_and_no_event_gap(Engine engine, UnitOfWork unitOfWork, bool withIfMatch)
    {
        await using var store = await stores.OpenAsync(engine, o => o.UnitOfWork = unitOfWork);
        var order = await store.CreateOrderAsync();
        var winner = await TransitionRace.RunAsync(store.Store, order.Id, Parallel, withIfMatch);

        var final = (await store.Store.GetAsync(order.Id, Ct))!;
        final.Version.ShouldBe(2);
        final.Events.Select(e => e.Sequence).ShouldBe([1, 2]);
        final.Status.ShouldBe(winner.Order!.Status);
        var stored = await store.QueryAsync<long>("SELECT sequence FROM order_events WHERE order_id = @Id ORDER BY sequence", new { Id = store.Id(order.Id) });
        stored.ShouldBe([1L, 2L]);
    }

    /// <summary>
    /// PostgreSQL's transition is one statement whose read-back is the statement's snapshot plus its own event: a step
    /// another transaction commits while this statement waits on the row lock is not in that snapshot, yet the UPDATE
    /// re-checks its WHERE on the committed row and applies (cancel is legal from Created and from Paid). The answer must
    /// still carry every event, 1..3, so the store reads the order again; without that re-read event 2 is missing.
    /// </summary>
    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    public async Task A_step_committed_while_a_transition_waits_on_the_row_is_in_its_answer()
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql);
        var order = await store.CreateOrderAsync();
        await using var other = await store.OpenDirectAsync();
        await using var payment = await other.BeginTransactionAsync(Ct);
        await using (var pay = other.CreateCommand())
        {
            pay.Transaction = payment;
            pay.CommandText = "UPDATE orders SET status = 'Paid', version = 2, updated_at = now() WHERE id = @id; "
                + "INSERT INTO order_events (order_id, sequence, type, at, data) VALUES (@id, 2, 'Paid', now(), '{}'::jsonb)";
            var id = pay.CreateParameter();
            id.ParameterName = "id";
            id.Value = order.Id;
            pay.Parameters.Add(id);
            await pay.ExecuteNonQueryAsync(Ct);
        }

        var cancel = store.Store.TransitionAsync(TestOrders.Command(order.Id, OrderAction.Cancel), Ct);
        await Task.Delay(TimeSpan.FromMilliseconds(300), Ct);
        cancel.IsCompleted.ShouldBeFalse("the cancel waits on the row the uncommitted pay holds");
        await payment.CommitAsync(Ct);

        var answer = await cancel;
        answer.Outcome.ShouldBe(TransitionOutcome.Applied);
        answer.Order!.Version.ShouldBe(3);
        answer.Order.Status.ShouldBe(OrderStatus.Cancelled);
        answer.Order.Events.Select(e => e.Sequence).ShouldBe([1, 2, 3], "the step committed meanwhile is in the answer");
        answer.Order.Events.Select(e => e.Type).ShouldBe(["Created", "Paid", "Cancelled"]);
    }

    [Theory]
    [StoreData(Engine.Sqlite, true)]
    [StoreData(Engine.Sqlite, false)]
    [StoreData(Engine.PostgreSql, true)]
    [StoreData(Engine.PostgreSql, false)]
    public async Task A_retried_create_with_the_same_id_is_replayed(Engine engine, bool withKey)
    {
        await using var store = await stores.OpenAsync(engine);
        var order = TestOrders.New();
        var request = new NewOrder(order, withKey ? "key-" + Guid.NewGuid() : null, TestOrders.Hash("body"));

        (await store.Store.CreateAsync(request, Ct)).Outcome.ShouldBe(CreateOutcome.Created);
        var retried = await store.Store.CreateAsync(request, Ct);

        retried.Outcome.ShouldBe(CreateOutcome.Replayed);
        retried.Order!.Id.ShouldBe(order.Id);
        retried.Order.Lines.ShouldBe(order.Lines);
        retried.Order.Events.ShouldBe(order.Events);
        (await store.ScalarAsync<long>("SELECT COUNT(*) FROM order_lines WHERE order_id = @Id", new { Id = store.Id(order.Id) })).ShouldBe(order.Lines.Count);
    }

    [Theory]
    [StoreData(Engine.Sqlite, UnitOfWork.PerRequest)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerRequest)]
    [StoreData(Engine.PostgreSql, UnitOfWork.PerCall)]
    public async Task Concurrent_creates_with_one_idempotency_key_make_one_order(Engine engine, UnitOfWork unitOfWork)
    {
        await using var store = await stores.OpenAsync(engine, o => o.UnitOfWork = unitOfWork);
        await KeyedCreateRace.RunAsync(store.Store, (customer, _) =>
            store.ScalarAsync<long>("SELECT COUNT(*) FROM orders WHERE customer_id = @Customer", new { Customer = customer }), Parallel);
    }
}
