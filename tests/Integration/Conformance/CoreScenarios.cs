using System.Net;
using System.Text.Json;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

/// <summary>
/// The behaviours every store must show under every switch combination. The conformance suite runs
/// each once with the default switches; the switch matrix runs each for every combination.
/// </summary>
public static partial class CoreScenarios
{
    public static async Task Workflow_create_pay_ship_complete_appends_one_event_per_step(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var created = await api.CreateOrderAsync(customer, [new("SKU-1", 2, 19.99m), new("SKU-2", 1, 5.00m)]);
        created.Status.ShouldBe("Created");
        created.Version.ShouldBe(1);
        created.Total.ShouldBe(44.98m);
        created.CustomerId.ShouldBe(customer);
        created.Lines.ShouldBe([new("SKU-1", 2, 19.99m), new("SKU-2", 1, 5.00m)]);
        ShouldHaveEvents(created, "Created");

        var paid = await api.TransitionOkAsync(created.Id, "pay", new { paymentReference = "PAY-42" });
        paid.Status.ShouldBe("Paid");
        paid.Version.ShouldBe(2);
        ShouldHaveEvents(paid, "Created", "Paid");
        paid.Events[1].Data.ShouldNotBeNull().PaymentReference.ShouldBe("PAY-42");

        var shipped = await api.TransitionOkAsync(created.Id, "ship", new { carrier = "DHL", trackingNumber = "TRK-1" });
        shipped.Status.ShouldBe("Shipped");
        shipped.Version.ShouldBe(3);
        ShouldHaveEvents(shipped, "Created", "Paid", "Shipped");
        shipped.Events[2].Data.ShouldNotBeNull().Carrier.ShouldBe("DHL");
        shipped.Events[2].Data!.TrackingNumber.ShouldBe("TRK-1");

        var completed = await api.TransitionOkAsync(created.Id, "complete");
        completed.Status.ShouldBe("Completed");
        completed.Version.ShouldBe(4);
        ShouldHaveEvents(completed, "Created", "Paid", "Shipped", "Completed");
        completed.CreatedAt.ShouldBe(created.CreatedAt);
        completed.UpdatedAt.ShouldBeGreaterThanOrEqualTo(shipped.UpdatedAt);
        completed.UpdatedAt.ShouldBe(completed.Events[^1].At);

        // What the client was told is exactly what the store kept, to the microsecond.
        (await api.GetOrderAsync(created.Id)).ShouldBeEquivalentTo(completed);
    }

    public static async Task Cancel_is_legal_from_Created_and_Paid_only(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var fromCreated = await api.CreateOrderAsync(customer);
        var cancelled = await api.TransitionOkAsync(fromCreated.Id, "cancel", new { reason = "changed my mind" });
        cancelled.Status.ShouldBe("Cancelled");
        ShouldHaveEvents(cancelled, "Created", "Cancelled");
        cancelled.Events[1].Data.ShouldNotBeNull().Reason.ShouldBe("changed my mind");

        var fromPaid = await api.CreateOrderAsync(customer);
        await api.TransitionOkAsync(fromPaid.Id, "pay");
        (await api.TransitionOkAsync(fromPaid.Id, "cancel")).Status.ShouldBe("Cancelled");

        var fromShipped = await api.CreateOrderAsync(customer);
        await api.TransitionOkAsync(fromShipped.Id, "pay");
        var shipped = await api.TransitionOkAsync(fromShipped.Id, "ship", new { carrier = "UPS", trackingNumber = "1Z" });
        await ShouldConflictAndChangeNothingAsync(api, shipped, "cancel");
    }

    public static async Task Illegal_transitions_get_409_and_change_nothing(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var created = await api.CreateOrderAsync(customer);
        await ShouldConflictAndChangeNothingAsync(api, created, "ship", new { carrier = "DHL", trackingNumber = "T" });
        await ShouldConflictAndChangeNothingAsync(api, created, "complete");

        var paid = await api.TransitionOkAsync(created.Id, "pay");
        await ShouldConflictAndChangeNothingAsync(api, paid, "pay");
        await ShouldConflictAndChangeNothingAsync(api, paid, "complete");

        var cancelled = await api.TransitionOkAsync(created.Id, "cancel");
        foreach (var action in new[] { "pay", "ship", "complete", "cancel" })
        {
            await ShouldConflictAndChangeNothingAsync(api, cancelled, action, action == "ship" ? new { carrier = "DHL", trackingNumber = "T" } : null);
        }

        var done = await api.CreateOrderAsync(customer);
        await api.TransitionOkAsync(done.Id, "pay");
        await api.TransitionOkAsync(done.Id, "ship", new { carrier = "DHL", trackingNumber = "T" });
        var completed = await api.TransitionOkAsync(done.Id, "complete");
        foreach (var action in new[] { "pay", "ship", "complete", "cancel" })
        {
            await ShouldConflictAndChangeNothingAsync(api, completed, action, action == "ship" ? new { carrier = "DHL", trackingNumber = "T" } : null);
        }
    }

    public static async Task If_Match_with_a_stale_version_gets_409_and_a_current_one_succeeds(OrderApi api)
    {
        var created = await api.CreateOrderAsync(Ids.NewCustomer());
        var paid = await api.TransitionOkAsync(created.Id, "pay", ifMatch: "\"1\"");
        paid.Version.ShouldBe(2);

        // Version 1 is stale now: the ship is legal by status but must not happen.
        await ShouldConflictAndChangeNothingAsync(api, paid, "ship", new { carrier = "DHL", trackingNumber = "T" }, ifMatch: "\"1\"");
        await ShouldConflictAndChangeNothingAsync(api, paid, "cancel", ifMatch: "\"7\"");

        var shipped = await api.TransitionOkAsync(created.Id, "ship", new { carrier = "DHL", trackingNumber = "T" }, ifMatch: "\"2\"");
        shipped.Version.ShouldBe(3);
        ShouldHaveEvents(shipped, "Created", "Paid", "Shipped");
    }

    /// <summary>
    /// Each contender is a client of the contract: a key of its own, and a 503 sent again after Retry-After (a pay that
    /// committed but answered 503 replays its 200). The outcome is then exact: one winner, every other pay a 409.
    /// </summary>
    public static async Task Fifty_parallel_pays_of_one_order_have_exactly_one_winner(OrderApi api)
    {
        var created = await api.CreateOrderAsync(Ids.NewCustomer());
        var results = await ContendAsync(50, i => api.TransitionAsync(
            created.Id, "pay", new { paymentReference = $"P{i}" }, idempotencyKey: Ids.NewKey()));

        results.Where(r => r.Status is not HttpStatusCode.OK and not HttpStatusCode.Conflict)
            .ShouldBeEmpty("every loser must get 409, never a 5xx or anything else");
        var winner = results.Select((r, i) => (r.Status, Reference: $"P{i}")).Where(r => r.Status == HttpStatusCode.OK)
            .ShouldHaveSingleItem("exactly one pay may win");
        results.Count(r => r.Status == HttpStatusCode.Conflict).ShouldBe(49);

        var after = await api.GetOrderAsync(created.Id);
        after.Status.ShouldBe("Paid");
        after.Version.ShouldBe(2);
        ShouldHaveEvents(after, "Created", "Paid");
        after.Events[1].Data.ShouldNotBeNull().PaymentReference.ShouldBe(winner.Reference, "the winner's pay is kept");
    }

    public static async Task Parallel_mixed_transitions_leave_a_gapless_event_history(OrderApi api)
    {
        var created = await api.CreateOrderAsync(Ids.NewCustomer());
        string[] actions = ["pay", "cancel", "ship", "complete"];
        var results = await ContendAsync(40, i =>
        {
            var action = actions[i % actions.Length];
            var body = action == "ship" ? new { carrier = "C", trackingNumber = "T" } : null;
            return api.TransitionAsync(created.Id, action, body, idempotencyKey: Ids.NewKey());
        });

        results.Select(r => r.Status).ShouldAllBe(s => s == HttpStatusCode.OK || s == HttpStatusCode.Conflict);
        var after = await api.GetOrderAsync(created.Id);
        results.Count(r => r.Status == HttpStatusCode.OK)
            .ShouldBe(after.Version - 1, "every 200 is one version step, and no step is lost");
        after.Events.Select(e => e.Sequence).ShouldBe(Enumerable.Range(1, after.Version));
    }

    public static async Task Same_Idempotency_Key_and_body_returns_the_first_order_and_a_different_body_gets_422(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var key = Ids.NewKey();
        using var first = await api.CreateAsync(customer, idempotencyKey: key);
        var original = await OrderApi.ReadOrderAsync(first, HttpStatusCode.Created);

        using var again = await api.CreateAsync(customer, idempotencyKey: key);
        again.StatusCode.ShouldBeOneOf(HttpStatusCode.OK, HttpStatusCode.Created);
        var replayed = await OrderApi.ReadOrderAsync(again, again.StatusCode);
        replayed.ShouldBeEquivalentTo(original);

        using var different = await api.CreateAsync(customer, [new("OTHER", 1, 1m)], key);
        await OrderApi.ReadProblemAsync(different, HttpStatusCode.UnprocessableEntity);

        (await api.ListAsync(customer)).Select(o => o.Id).ShouldBe([original.Id], "a replay must not create a second order");
    }

    public static async Task Concurrent_creates_with_one_Idempotency_Key_make_one_order(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var key = Ids.NewKey();
        var results = await ContendAsync(20, _ => api.CreateAsync(customer, idempotencyKey: key));

        results.Select(r => r.Status).ShouldAllBe(s => s == HttpStatusCode.OK || s == HttpStatusCode.Created);
        results.Select(r => r.Order.Id).Distinct().Count()
            .ShouldBe(1, "every request with the key must get the same order");
        (await api.ListAsync(customer)).Count.ShouldBe(1);
    }

    public static async Task Batch_returns_each_found_order_once(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var a = await api.CreateOrderAsync(customer);
        var b = await api.CreateOrderAsync(customer);
        var c = await api.CreateOrderAsync(customer);
        await api.TransitionOkAsync(b.Id, "pay");

        var found = await api.BatchAsync([a.Id, b.Id, a.Id, Guid.CreateVersion7(), c.Id, b.Id, a.Id]);

        found.Select(o => o.Id).OrderBy(id => id).ShouldBe(new[] { a.Id, b.Id, c.Id }.OrderBy(id => id));
        found.Single(o => o.Id == b.Id).ShouldBeEquivalentTo(await api.GetOrderAsync(b.Id));
        (await api.BatchAsync([Guid.CreateVersion7()])).ShouldBeEmpty();
    }

    public static async Task Customer_listing_is_newest_first_and_honours_status_and_limit(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var first = await api.CreateOrderAsync(customer);
        var second = await api.CreateOrderAsync(customer);
        var third = await api.CreateOrderAsync(customer);
        await api.CreateOrderAsync(Ids.NewCustomer()); // someone else's
        await api.TransitionOkAsync(second.Id, "pay");

        (await api.ListAsync(customer)).Select(o => o.Id).ShouldBe([third.Id, second.Id, first.Id]);
        var paid = await api.ListAsync(customer, "?status=Paid");
        paid.Select(o => o.Id).ShouldBe([second.Id]);
        paid[0].Status.ShouldBe("Paid");
        (await api.ListAsync(customer, "?status=Created")).Select(o => o.Id).ShouldBe([third.Id, first.Id]);
        (await api.ListAsync(customer, "?limit=2")).Select(o => o.Id).ShouldBe([third.Id, second.Id]);
        (await api.ListAsync(customer, "?status=Created&limit=1")).Select(o => o.Id).ShouldBe([third.Id]);
        (await api.ListAsync(Ids.NewCustomer())).ShouldBeEmpty();
    }

    public static async Task An_unknown_order_is_404_on_every_endpoint(OrderApi api)
    {
        var unknown = Guid.CreateVersion7();
        using (var get = await api.GetAsync($"/orders/{unknown}"))
        {
            await OrderApi.ReadProblemAsync(get, HttpStatusCode.NotFound);
        }

        foreach (var (action, body) in new (string, object?)[] { ("pay", null), ("ship", new { carrier = "C", trackingNumber = "T" }), ("complete", null), ("cancel", null) })
        {
            using var response = await api.TransitionAsync(unknown, action, body);
            await OrderApi.ReadProblemAsync(response, HttpStatusCode.NotFound);
        }
    }

    /// <summary>
    /// Sends <paramref name="count"/> requests at once, each retried after a 503 as a client would
    /// (<see cref="OrderApi.RetryUnavailableAsync"/>), and returns each one's final answer, in order.
    /// </summary>
    public static async Task<ContenderAnswer[]> ContendAsync(int count, Func<int, Task<HttpResponseMessage>> send)
    {
        using var start = new ManualResetEventSlim();
        var contenders = Enumerable.Range(0, count).Select(i => Task.Run(async () =>
        {
            start.Wait(TestContext.Current.CancellationToken);
            var sends = 0;
            using var response = await OrderApi.RetryUnavailableAsync(() =>
            {
                sends++;
                return send(i);
            }, TestContext.Current.CancellationToken);
            var replayed = response.Headers.TryGetValues("Idempotent-Replayed", out var mark)
                           && mark.Single() == "true";
            var body = await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken);
            return new ContenderAnswer(response.StatusCode, body, replayed, Retried: sends > 1);
        })).ToArray();
        start.Set();
        return await Task.WhenAll(contenders);
    }

    public static void ShouldHaveEvents(OrderDto order, params string[] types)
    {
        order.Events.Select(e => e.Type).ShouldBe(types);
        order.Events.Select(e => e.Sequence).ShouldBe(Enumerable.Range(1, types.Length), "sequence runs 1..n with no gap");
        order.Version.ShouldBe(types.Length, "the version equals the number of events");
    }

    /// <summary>Asserts a 409 ProblemDetails and that the order is exactly as it was.</summary>
    public static async Task ShouldConflictAndChangeNothingAsync(OrderApi api, OrderDto before, string action, object? body = null, string? ifMatch = null)
    {
        using var response = await api.TransitionAsync(before.Id, action, body, ifMatch);
        await OrderApi.ReadProblemAsync(response, HttpStatusCode.Conflict);
        (await api.GetOrderAsync(before.Id)).ShouldBeEquivalentTo(before);
    }
}

/// <summary>A contender's final answer, whether it is marked Idempotent-Replayed, and whether it met a 503.</summary>
public sealed record ContenderAnswer(HttpStatusCode Status, string Body, bool Replayed, bool Retried)
{
    public OrderDto Order => JsonSerializer.Deserialize<OrderDto>(Body, OrderApi.Json).ShouldNotBeNull();
}
