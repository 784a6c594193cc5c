using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// Straight through the store port (IOrderStore from the host's container): what the pure rules say
// an order becomes is exactly what every store persists and reads back.
public abstract partial class ConformanceSuite<TStore>
{
    private IOrderStore Port => Service.Store;

    private static Order NewOrder(string? customer = null)
    {
        // An instant with all six microsecond digits set: every store must keep them.
        var at = new DateTimeOffset(2025, 3, 4, 5, 6, 7, TimeSpan.Zero).AddTicks(1_234_560);
        return Transitions.Create(Guid.CreateVersion7(), customer ?? Ids.NewCustomer(), [new OrderLine("SKU-1", 3, 12.34m), new OrderLine("SKU-2", 1, 0.5m)], at);
    }

    private static string Hash(string seed) => Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(seed)));

    [Fact]
    public async Task Port_keeps_an_order_exactly_as_the_rules_built_it()
    {
        var order = NewOrder();
        var result = await Port.CreateAsync(new NewOrder(order, null, Hash("a")), Ct);

        result.Outcome.ShouldBe(CreateOutcome.Created);
        (await Port.GetAsync(order.Id, Ct)).ShouldBeSameOrderAs(order);
    }

    [Fact]
    public async Task Port_replays_a_retried_insert_of_the_same_id()
    {
        var order = NewOrder();
        await Port.CreateAsync(new NewOrder(order, null, Hash("a")), Ct);

        var retried = await Port.CreateAsync(new NewOrder(order, null, Hash("a")), Ct);

        retried.Outcome.ShouldBe(CreateOutcome.Replayed);
        retried.Order.ShouldBeSameOrderAs(order);
    }

    [Fact]
    public async Task Port_tells_a_replayed_key_from_a_key_reused_with_a_different_request()
    {
        var key = Ids.NewKey();

        // The order as the store made it: a store whose key decides a keyed create's id (Citus) gives it that id.
        var first = (await Port.CreateAsync(new NewOrder(NewOrder(), key, Hash("body-1")), Ct)).Order!;

        var replay = await Port.CreateAsync(new NewOrder(NewOrder(first.CustomerId), key, Hash("body-1")), Ct);
        replay.Outcome.ShouldBe(CreateOutcome.Replayed);
        replay.Order.ShouldBeSameOrderAs(first);

        var reused = await Port.CreateAsync(new NewOrder(NewOrder(first.CustomerId), key, Hash("body-2")), Ct);
        reused.Outcome.ShouldBe(CreateOutcome.KeyReusedWithDifferentRequest);

        (await Port.ListByCustomerAsync(first.CustomerId, null, 10, Ct).ToListAsync(Ct)).Count.ShouldBe(1);
    }

    [Fact]
    public async Task Port_transitions_persist_what_Transitions_Apply_builds()
    {
        var expected = NewOrder();
        await Port.CreateAsync(new NewOrder(expected, null, Hash("a")), Ct);
        var steps = new (OrderAction Action, OrderEventData Data)[]
        {
            (OrderAction.Pay, new OrderEventData(PaymentReference: "P-1")),
            (OrderAction.Ship, new OrderEventData(Carrier: "DHL", TrackingNumber: "T-1")),
            (OrderAction.Complete, new OrderEventData()),
        };
        foreach (var (action, data) in steps)
        {
            var at = expected.UpdatedAt.AddTicks(1_000_010); // 100.001 ms later: microseconds again
            expected = Transitions.Apply(expected, action, at, data);

            var result = await Port.TransitionAsync(new TransitionCommand(expected.Id, action, expected.Version - 1, at, data), Ct);

            result.Outcome.ShouldBe(TransitionOutcome.Applied);
            result.Order.ShouldBeSameOrderAs(expected);
        }

        (await Port.GetAsync(expected.Id, Ct)).ShouldBeSameOrderAs(expected);
    }

    [Fact]
    public async Task Port_explains_a_conditional_write_that_matched_nothing()
    {
        var order = NewOrder();
        await Port.CreateAsync(new NewOrder(order, null, Hash("a")), Ct);
        var at = order.CreatedAt.AddSeconds(1);

        (await Port.TransitionAsync(new TransitionCommand(Guid.CreateVersion7(), OrderAction.Pay, null, at, new()), Ct))
            .Outcome.ShouldBe(TransitionOutcome.NotFound);

        var illegal = await Port.TransitionAsync(new TransitionCommand(order.Id, OrderAction.Ship, null, at, new(Carrier: "C", TrackingNumber: "T")), Ct);
        illegal.Outcome.ShouldBe(TransitionOutcome.IllegalFromStatus);
        illegal.CurrentStatus.ShouldBe(OrderStatus.Created);
        illegal.CurrentVersion.ShouldBe(1);

        var stale = await Port.TransitionAsync(new TransitionCommand(order.Id, OrderAction.Pay, 5, at, new()), Ct);
        stale.Outcome.ShouldBe(TransitionOutcome.StaleVersion);
        stale.CurrentVersion.ShouldBe(1);

        (await Port.GetAsync(order.Id, Ct)).ShouldBeSameOrderAs(order);
    }

    [Fact]
    public async Task Port_GetMany_returns_each_found_order_once()
    {
        var a = NewOrder();
        var b = NewOrder();
        await Port.CreateAsync(new NewOrder(a, null, Hash("a")), Ct);
        await Port.CreateAsync(new NewOrder(b, null, Hash("b")), Ct);

        var found = await Port.GetManyAsync([a.Id, b.Id, a.Id, Guid.CreateVersion7()], Ct).ToListAsync(Ct);

        found.Count.ShouldBe(2);
        found.Single(o => o.Id == a.Id).ShouldBeSameOrderAs(a);
        found.Single(o => o.Id == b.Id).ShouldBeSameOrderAs(b);
    }

    [Fact]
    public async Task Port_lists_a_customer_newest_first_by_status_and_limit()
    {
        var customer = Ids.NewCustomer();
        var orders = Enumerable.Range(0, 3)
            .Select(i => NewOrder(customer) is var o ? o with { CreatedAt = o.CreatedAt.AddMinutes(i), UpdatedAt = o.CreatedAt.AddMinutes(i), Events = [o.Events[0] with { At = o.CreatedAt.AddMinutes(i) }] } : null!)
            .ToList();
        foreach (var order in orders)
        {
            await Port.CreateAsync(new NewOrder(order, null, Hash(order.Id.ToString())), Ct);
        }

        await Port.TransitionAsync(new TransitionCommand(orders[0].Id, OrderAction.Pay, null, orders[2].CreatedAt.AddSeconds(1), new()), Ct);

        (await Port.ListByCustomerAsync(customer, null, 10, Ct).ToListAsync(Ct)).Select(o => o.Id).ShouldBe([orders[2].Id, orders[1].Id, orders[0].Id]);
        (await Port.ListByCustomerAsync(customer, OrderStatus.Paid, 10, Ct).ToListAsync(Ct)).Select(o => o.Id).ShouldBe([orders[0].Id]);
        (await Port.ListByCustomerAsync(customer, null, 2, Ct).ToListAsync(Ct)).Select(o => o.Id).ShouldBe([orders[2].Id, orders[1].Id]);
    }

    [Fact]
    public async Task Port_gives_one_winner_among_fifty_parallel_transitions()
    {
        var order = NewOrder();
        await Port.CreateAsync(new NewOrder(order, null, Hash("a")), Ct);
        var at = order.CreatedAt.AddSeconds(1);

        // Each contender keys its pay, so that it may send it again after "store unavailable" (as the API's client
        // does after a 503): a pay that committed then replays, and counts as the one that won.
        var pays = Enumerable.Range(0, 50).Select(i =>
            new TransitionCommand(order.Id, OrderAction.Pay, null, at, new(PaymentReference: $"P{i}"))
                { IdempotencyKey = Ids.NewKey(), RequestHash = Hash($"pay P{i}") }).ToList();
        var results = await Task.WhenAll(pays.Select(pay => Task.Run(() =>
            RetryUnavailableAsync(() => Port.TransitionAsync(pay, Ct)))));

        var won = results.Select((r, i) => (r.Outcome, Reference: $"P{i}"))
            .Where(r => r.Outcome is TransitionOutcome.Applied or TransitionOutcome.Replayed).ShouldHaveSingleItem();
        results.ShouldAllBe(r => r.Outcome == TransitionOutcome.Applied || r.Outcome == TransitionOutcome.Replayed ||
            r.Outcome == TransitionOutcome.IllegalFromStatus || r.Outcome == TransitionOutcome.StaleVersion);
        var after = await Port.GetAsync(order.Id, Ct);
        after.ShouldNotBeNull().Version.ShouldBe(2);
        after.Events.Select(e => e.Sequence).ShouldBe([1, 2]);
        after.Events[1].Data.PaymentReference.ShouldBe(won.Reference);
    }

    /// <summary>
    /// Calls the port again after <see cref="StoreUnavailableException"/> (its RetryAfter, else 1 s), as the API's
    /// client does after a 503, until <see cref="OrderApi.RetryDeadline"/>.
    /// </summary>
    private static async Task<T> RetryUnavailableAsync<T>(Func<Task<T>> call)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            try
            {
                return await call();
            }
            catch (StoreUnavailableException e) when (clock.Elapsed < OrderApi.RetryDeadline)
            {
                await Task.Delay(e.RetryAfter ?? TimeSpan.FromSeconds(1), Ct);
            }
        }
    }

    [Fact]
    public async Task Port_replays_a_keyed_transition_as_its_step_left_the_order_and_refuses_the_key_to_any_other_request()
    {
        SkipWhenKeysAreUniquePerOrder();
        var order = NewOrder();
        var other = NewOrder(order.CustomerId);
        await Port.CreateAsync(new NewOrder(order, null, Hash("a")), Ct);
        await Port.CreateAsync(new NewOrder(other, null, Hash("b")), Ct);
        var key = Ids.NewKey();
        var payAt = order.CreatedAt.AddTicks(1_000_010);
        var pay = new TransitionCommand(order.Id, OrderAction.Pay, 1, payAt, new(PaymentReference: "P-1")) { IdempotencyKey = key, RequestHash = Hash("pay P-1") };
        var paid = Transitions.Apply(order, OrderAction.Pay, payAt, pay.Data);

        var applied = await Port.TransitionAsync(pay, Ct);
        applied.Outcome.ShouldBe(TransitionOutcome.Applied);
        applied.Order.ShouldBeSameOrderAs(paid);

        var shipAt = payAt.AddSeconds(1);
        var shipped = Transitions.Apply(paid, OrderAction.Ship, shipAt, new(Carrier: "C", TrackingNumber: "T"));
        (await Port.TransitionAsync(new TransitionCommand(order.Id, OrderAction.Ship, null, shipAt, shipped.Events[^1].Data), Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);

        // The retry comes later (another instant), with a stale If-Match, after the order moved on.
        var replay = await Port.TransitionAsync(pay with { At = shipAt.AddSeconds(5) }, Ct);
        replay.Outcome.ShouldBe(TransitionOutcome.Replayed);
        replay.Order.ShouldBeSameOrderAs(paid);

        (await Port.TransitionAsync(pay with { RequestHash = Hash("pay P-2") }, Ct)).Outcome.ShouldBe(TransitionOutcome.KeyReusedWithDifferentRequest);
        (await Port.TransitionAsync(pay with { OrderId = other.Id, ExpectedVersion = null }, Ct)).Outcome.ShouldBe(TransitionOutcome.KeyReusedWithDifferentRequest);
        (await Port.TransitionAsync(pay with { OrderId = Guid.CreateVersion7() }, Ct)).Outcome.ShouldBe(TransitionOutcome.KeyReusedWithDifferentRequest);

        (await Port.GetAsync(order.Id, Ct)).ShouldBeSameOrderAs(shipped);
        (await Port.GetAsync(other.Id, Ct)).ShouldBeSameOrderAs(other);
    }

    [Fact]
    public async Task Port_stores_no_key_for_a_rejected_transition()
    {
        var order = NewOrder();
        await Port.CreateAsync(new NewOrder(order, null, Hash("a")), Ct);
        var at = order.CreatedAt.AddSeconds(1);
        var pay = new TransitionCommand(order.Id, OrderAction.Pay, null, at, new(PaymentReference: "P"))
        {
            IdempotencyKey = Ids.NewKey(),
            RequestHash = Hash("pay P"),
        };

        (await Port.TransitionAsync(pay with { ExpectedVersion = 9 }, Ct)).Outcome.ShouldBe(TransitionOutcome.StaleVersion);
        (await Port.TransitionAsync(pay with { OrderId = Guid.CreateVersion7() }, Ct)).Outcome.ShouldBe(TransitionOutcome.NotFound);

        // The rejected attempts took no key: the retry is judged afresh, and applies.
        var retried = await Port.TransitionAsync(pay, Ct);
        retried.Outcome.ShouldBe(TransitionOutcome.Applied);
        retried.Order.ShouldBeSameOrderAs(Transitions.Apply(order, OrderAction.Pay, at, pay.Data));
    }

    [Fact]
    public async Task Port_readiness_check_passes_when_the_store_is_up() =>
        await Port.CheckReadyAsync(Ct);
}
