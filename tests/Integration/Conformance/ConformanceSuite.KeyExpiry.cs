using System.Net;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using OrderService.Data;
using OrderService.Data.Keys;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// Idempotency-Keys expire (Store:IdempotencyKeys): honoured for at least the retention, then forgotten by the clean-up,
// after which a retry is a new request. The port tests stamp their keys in 1990 and 2001, before any other test's
// (2025 and now), so their cutoffs reach their own keys alone in the class's shared database.
public abstract partial class ConformanceSuite<TStore>
{
    private static readonly OrderEventData Payment = new(PaymentReference: "P-1");

    private static Order OrderAt(string customer, DateTimeOffset at) =>
        Transitions.Create(Guid.CreateVersion7(), customer, [new OrderLine("SKU-1", 1, 2.5m)], at);

    /// <summary>One clean-up: batches of <paramref name="batchSize"/> until one forgets nothing; how many rows (MongoDB: orders) it changed.</summary>
    private async Task<int> ForgetAllAsync(DateTimeOffset storedBefore, int batchSize)
    {
        var total = 0;
        int batch;
        do
        {
            batch = await Port.ForgetKeysStoredBeforeAsync(storedBefore, batchSize, Ct);
            batch.ShouldBeInRange(0, batchSize);
            total += batch;
        }
        while (batch > 0);

        return total;
    }

    [Fact]
    public async Task Port_forgets_only_the_keys_stored_before_the_cutoff_and_a_forgotten_key_is_a_new_request()
    {
        var stored = new DateTimeOffset(2001, 2, 3, 4, 5, 6, TimeSpan.Zero);
        var cutoff = stored.AddHours(24);
        var customer = Ids.NewCustomer();
        var (createKey, payKey, keptKey) = (Ids.NewKey(), Ids.NewKey(), Ids.NewKey());
        var firstCreate = await Port.CreateAsync(new NewOrder(OrderAt(customer, stored), createKey, Hash("body")), Ct);
        firstCreate.Outcome.ShouldBe(CreateOutcome.Created);
        var first = firstCreate.Order!;
        var pay = new TransitionCommand(first.Id, OrderAction.Pay, 1, stored.AddHours(1), Payment, IdempotencyKey: payKey, RequestHash: Hash("pay"));
        (await Port.TransitionAsync(pay, Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);
        var keptCreate = await Port.CreateAsync(new NewOrder(OrderAt(customer, cutoff.AddSeconds(1)), keptKey, Hash("kept")), Ct);
        keptCreate.Outcome.ShouldBe(CreateOutcome.Created);
        var kept = keptCreate.Order!;

        // Two rows on the SQL stores; one order holding both entries on MongoDB.
        (await ForgetAllAsync(cutoff, batchSize: 1)).ShouldBeInRange(1, 2);
        (await ForgetAllAsync(cutoff, batchSize: 1)).ShouldBe(0, "a second clean-up finds nothing left");

        var retried = await Port.CreateAsync(new NewOrder(OrderAt(customer, cutoff.AddHours(1)), createKey, Hash("body")), Ct);
        if (Store.CreateKeysLiveWithTheirOrder is { } because)
        {
            retried.Outcome.ShouldBe(CreateOutcome.Replayed, because);
            retried.Order!.Id.ShouldBe(first.Id, because);
        }
        else
        {
            retried.Outcome.ShouldBe(CreateOutcome.Created, "a forgotten create key makes a new order");
            retried.Order!.Id.ShouldNotBe(first.Id);
        }

        var payAgain = await Port.TransitionAsync(pay with { At = cutoff.AddHours(1) }, Ct);
        payAgain.Outcome.ShouldBe(
            TransitionResult.Rejected(OrderStatus.Paid, 2, OrderAction.Pay, 1).Outcome, "a forgotten step key is judged afresh, as without a key: the order is Paid already");

        var replay = await Port.CreateAsync(new NewOrder(OrderAt(customer, cutoff.AddHours(1)), keptKey, Hash("kept")), Ct);
        replay.Outcome.ShouldBe(CreateOutcome.Replayed, "a key stored after the cutoff is still honoured");
        replay.Order.ShouldBeSameOrderAs(kept);

        var paid = await Port.GetAsync(first.Id, Ct);
        paid.ShouldNotBeNull("the clean-up forgets keys, never orders");
        paid.Status.ShouldBe(OrderStatus.Paid);
        paid.Events.Count.ShouldBe(2);
    }

    [Fact]
    public async Task Port_two_clean_ups_at_once_forget_every_expired_key_once_while_keyed_requests_run()
    {
        var stored = new DateTimeOffset(1990, 1, 1, 0, 0, 0, TimeSpan.Zero);
        var cutoff = stored.AddDays(1);
        var customer = Ids.NewCustomer();
        var expired = new List<(Order Order, string Key)>();
        foreach (var chunk in Enumerable.Range(0, 90).Select(i => (Order: OrderAt(customer, stored.AddSeconds(i)), Key: Ids.NewKey())).Chunk(10))
        {
            var created = await Task.WhenAll(chunk.Select(e => Port.CreateAsync(new NewOrder(e.Order, e.Key, Hash(e.Key)), Ct)));
            created.ShouldAllBe(r => r.Outcome == CreateOutcome.Created);
            expired.AddRange(created.Zip(chunk, (result, e) => (result.Order!, e.Key)));
        }

        var expiring = Store.CreateKeysLiveWithTheirOrder is null ? expired.Count : 0;

        // Keyed creates and pays over HTTP (stored now) from four clients while two clean-ups (two replicas) run.
        using var stop = new CancellationTokenSource();
        using var started = new CountdownEvent(4);
        var traffic = Enumerable.Range(0, 4).Select(_ => Task.Run(() => KeyedTrafficAsync(started, stop.Token))).ToArray();
        started.Wait(TimeSpan.FromSeconds(60), Ct).ShouldBeTrue("every client answered a first keyed create and pay");
        var sweeps = await Task.WhenAll(ForgetAllAsync(cutoff, batchSize: 7), ForgetAllAsync(cutoff, batchSize: 7));
        await stop.CancelAsync();
        var fresh = (await Task.WhenAll(traffic)).SelectMany(answers => answers).ToList();

        if (Store.CountsEachForgottenKeyOnce)
        {
            sweeps.Sum().ShouldBe(expiring, $"each expired key is forgotten, and counted, once across both clean-ups ({sweeps[0]} + {sweeps[1]})");
        }
        else
        {
            sweeps.Sum().ShouldBeGreaterThanOrEqualTo(expiring, $"the engine may count an order both clean-ups reached ({sweeps[0]} + {sweeps[1]})");
        }

        (await ForgetAllAsync(cutoff, batchSize: 7)).ShouldBe(0, "no expired key is left");
        foreach (var (key, id) in fresh)
        {
            using var again = await Api.CreateAsync(customer, idempotencyKey: key);
            (await OrderApi.ReadOrderAsync(again, again.StatusCode)).Id.ShouldBe(id, "a key stored under the clean-up is still honoured");
        }

        foreach (var (order, key) in expired.Take(5))
        {
            (await Port.GetAsync(order.Id, Ct)).ShouldBeSameOrderAs(order);
            (await Port.CreateAsync(new NewOrder(OrderAt(customer, DateTimeOffset.UtcNow), key, Hash(key)), Ct)).Outcome
                .ShouldBe(Store.CreateKeysLiveWithTheirOrder is null ? CreateOutcome.Created : CreateOutcome.Replayed);
        }

        async Task<List<(string Key, Guid Id)>> KeyedTrafficAsync(CountdownEvent first, CancellationToken until)
        {
            var answers = new List<(string, Guid)>();
            do
            {
                var (key, payKey) = (Ids.NewKey(), Ids.NewKey());
                using var create = await OrderApi.RetryUnavailableAsync(
                    () => Api.CreateAsync(customer, idempotencyKey: key), Ct);
                create.StatusCode.ShouldBeOneOf(HttpStatusCode.Created, HttpStatusCode.OK);
                var order = await OrderApi.ReadOrderAsync(create, create.StatusCode);
                using var pay = await OrderApi.RetryUnavailableAsync(() =>
                    Api.TransitionAsync(order.Id, "pay", new { paymentReference = "P-1" }, idempotencyKey: payKey), Ct);
                await OrderApi.ShouldHaveStatusAsync(pay, HttpStatusCode.OK);
                answers.Add((key, order.Id));
                if (answers.Count == 1)
                {
                    first.Signal();
                }
            }
            while (!until.IsCancellationRequested);

            return answers;
        }
    }

    [Fact]
    public async Task An_Idempotency_Key_replays_within_the_retention_and_after_it_is_a_new_request()
    {
        var clock = new ShiftedClock();
        await using var factory = await Store.CreateFactoryAsync("key_expiry", []);
        await using var host = factory.WithWebHostBuilder(builder => builder.ConfigureTestServices(services => services.AddSingleton<TimeProvider>(clock)));
        using var http = host.CreateClient();
        var api = new OrderApi(http, Ct);
        var cleanup = host.Services.GetRequiredService<IdempotencyKeyCleanup>();
        var customer = Ids.NewCustomer();
        var (createKey, payKey) = (Ids.NewKey(), Ids.NewKey());
        var payment = new { paymentReference = "P-1" };

        using var first = await api.CreateAsync(customer, idempotencyKey: createKey);
        var original = await OrderApi.ReadOrderAsync(first, HttpStatusCode.Created);
        using var pay = await api.TransitionAsync(original.Id, "pay", payment, idempotencyKey: payKey);
        var paid = await OrderApi.ReadOrderAsync(pay, HttpStatusCode.OK);

        // A minute short of the 24 hours: the clean-up keeps both keys, and retries replay.
        clock.Advance(TimeSpan.FromHours(24) - TimeSpan.FromMinutes(1));
        (await cleanup.SweepAsync(Ct)).ShouldBe(0);
        using (var replay = await api.CreateAsync(customer, idempotencyKey: createKey))
        {
            (await OrderApi.ReadOrderAsync(replay, replay.StatusCode)).Id.ShouldBe(original.Id);
        }

        using (var replay = await api.TransitionAsync(original.Id, "pay", payment, idempotencyKey: payKey))
        {
            (await OrderApi.ReadOrderAsync(replay, HttpStatusCode.OK)).ShouldBeEquivalentTo(paid);
        }

        // A minute past them: the clean-up forgets both, and the same retries are new requests.
        clock.Advance(TimeSpan.FromMinutes(2));
        (await cleanup.SweepAsync(Ct)).ShouldBeGreaterThan(0);
        using var late = await api.CreateAsync(customer, idempotencyKey: createKey);
        if (Store.CreateKeysLiveWithTheirOrder is { } because)
        {
            (await OrderApi.ReadOrderAsync(late, late.StatusCode)).Id.ShouldBe(original.Id, because);
            using var stalePay = await api.TransitionAsync(original.Id, "pay", payment, idempotencyKey: payKey);
            await OrderApi.ReadProblemAsync(stalePay, HttpStatusCode.Conflict);
            (await api.ListAsync(customer)).Select(o => o.Id).ShouldBe([original.Id]);
            return;
        }

        var second = await OrderApi.ReadOrderAsync(late, HttpStatusCode.Created);
        second.Id.ShouldNotBe(original.Id, "an expired key no longer replays: the retry created a second order");
        using (var latePay = await api.TransitionAsync(original.Id, "pay", payment, idempotencyKey: payKey))
        {
            await OrderApi.ReadProblemAsync(latePay, HttpStatusCode.Conflict);
        }

        (await api.GetOrderAsync(original.Id)).ShouldBeEquivalentTo(paid);
        (await api.ListAsync(customer)).Select(o => o.Id).ShouldBe([second.Id, original.Id], ignoreOrder: true);

        // From now on the key names the second order, for another retention.
        using var replayOfSecond = await api.CreateAsync(customer, idempotencyKey: createKey);
        (await OrderApi.ReadOrderAsync(replayOfSecond, replayOfSecond.StatusCode)).Id.ShouldBe(second.Id);
    }
}
