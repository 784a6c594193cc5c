using System.Net;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;

namespace OrderService.Integration.Tests.Conformance;

/// <summary>Retry-safe transitions and keyset paging: behaviours the unit of work and the isolation levels could break.</summary>
public static partial class CoreScenarios
{
    public static async Task Retried_transitions_with_an_Idempotency_Key_answer_the_order_as_that_step_left_it(OrderApi api)
    {
        var created = await api.CreateOrderAsync(Ids.NewCustomer());
        var (payKey, shipKey, completeKey) = (Ids.NewKey(), Ids.NewKey(), Ids.NewKey());
        var payBody = new { paymentReference = "PAY-1" };
        var shipBody = new { carrier = "DHL", trackingNumber = "T-1" };

        var paid = await KeyedOkAsync(api, created.Id, "pay", payBody, payKey, ifMatch: "\"1\"", replayed: false);
        (await KeyedOkAsync(api, created.Id, "pay", payBody, payKey, ifMatch: "\"1\"", replayed: true)).ShouldBeEquivalentTo(paid);

        var shipped = await KeyedOkAsync(api, created.Id, "ship", shipBody, shipKey, replayed: false);
        var completed = await KeyedOkAsync(api, created.Id, "complete", null, completeKey, replayed: false);

        // The order has moved on (Completed, version 4), the If-Match is stale and pay is illegal now: a retry
        // of an applied step still answers what that step answered, and appends nothing.
        (await KeyedOkAsync(api, created.Id, "pay", payBody, payKey, ifMatch: "\"1\"", replayed: true)).ShouldBeEquivalentTo(paid);
        (await KeyedOkAsync(api, created.Id, "pay", payBody, payKey, replayed: true)).ShouldBeEquivalentTo(paid);
        (await KeyedOkAsync(api, created.Id, "ship", shipBody, shipKey, replayed: true)).ShouldBeEquivalentTo(shipped);
        (await KeyedOkAsync(api, created.Id, "complete", null, completeKey, replayed: true)).ShouldBeEquivalentTo(completed);
        paid.Version.ShouldBe(2);
        paid.Status.ShouldBe("Paid");
        ShouldHaveEvents(paid, "Created", "Paid");

        var after = await api.GetOrderAsync(created.Id);
        after.ShouldBeEquivalentTo(completed);
        ShouldHaveEvents(after, "Created", "Paid", "Shipped", "Completed");

        // Without a key a retry is judged afresh: 409, as before.
        await ShouldConflictAndChangeNothingAsync(api, after, "pay", payBody);

        // A cancel with a key, replayed.
        var other = await api.CreateOrderAsync(Ids.NewCustomer());
        var cancelKey = Ids.NewKey();
        var cancelled = await KeyedOkAsync(api, other.Id, "cancel", new { reason = "r" }, cancelKey, replayed: false);
        (await KeyedOkAsync(api, other.Id, "cancel", new { reason = "r" }, cancelKey, replayed: true)).ShouldBeEquivalentTo(cancelled);
        ShouldHaveEvents(await api.GetOrderAsync(other.Id), "Created", "Cancelled");
    }

    public static async Task A_transition_key_names_one_request_and_any_other_gets_422_and_changes_nothing(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var order = await api.CreateOrderAsync(customer);
        var key = Ids.NewKey();
        var paid = await KeyedOkAsync(api, order.Id, "pay", new { paymentReference = "P-1" }, key, replayed: false);

        // Another body, another step of the same order (legal now: the key alone must stop it), another order
        // (legal there too: the write must roll back whole), and a create: all 422, nothing written.
        await ShouldBeKeyReusedAsync(api, order.Id, "pay", new { paymentReference = "P-2" }, key);
        await ShouldBeKeyReusedAsync(api, order.Id, "ship", new { carrier = "C", trackingNumber = "T" }, key);
        await ShouldBeKeyReusedAsync(api, order.Id, "cancel", null, key);
        var stranger = await api.CreateOrderAsync(customer);
        await ShouldBeKeyReusedAsync(api, stranger.Id, "pay", new { paymentReference = "P-1" }, key);
        using (var create = await api.CreateAsync(customer, idempotencyKey: key))
        {
            await OrderApi.ReadProblemAsync(create, HttpStatusCode.UnprocessableEntity);
        }

        (await api.GetOrderAsync(order.Id)).ShouldBeEquivalentTo(paid);
        (await api.GetOrderAsync(stranger.Id)).ShouldBeEquivalentTo(stranger);
        (await api.ListAsync(customer)).Count.ShouldBe(2);

        // One namespace: a create's key is taken for transitions too, even on the order it created.
        var createKey = Ids.NewKey();
        using var first = await api.CreateAsync(customer, idempotencyKey: createKey);
        var keyed = await OrderApi.ReadOrderAsync(first, HttpStatusCode.Created);
        await ShouldBeKeyReusedAsync(api, keyed.Id, "pay", null, createKey);
        (await api.GetOrderAsync(keyed.Id)).ShouldBeEquivalentTo(keyed);
    }

    public static async Task Concurrent_retries_of_one_keyed_transition_append_one_event_and_all_answer_200(OrderApi api)
    {
        var created = await api.CreateOrderAsync(Ids.NewCustomer());
        var key = Ids.NewKey();
        var answers = await ContendAsync(20, _ => api.TransitionAsync(
            created.Id, "pay", new { paymentReference = "PAY-R" }, idempotencyKey: key));

        answers.Select(a => a.Status).ShouldAllBe(s => s == HttpStatusCode.OK);
        // The retry after a 503 of the request that applied the step is a replay too.
        answers.Count(a => !a.Replayed).ShouldBeInRange(answers.Any(a => a.Retried) ? 0 : 1, 1,
            "exactly one retry applies the step; the others replay it");
        foreach (var answer in answers)
        {
            answer.Order.ShouldBeEquivalentTo(answers[0].Order);
        }

        var after = await api.GetOrderAsync(created.Id);
        ShouldHaveEvents(after, "Created", "Paid");
        after.ShouldBeEquivalentTo(answers[0].Order);
    }

    public static async Task Customer_listing_pages_follow_Link_next_to_every_order_exactly_once(OrderApi api)
    {
        var customer = Ids.NewCustomer();
        var ids = new List<Guid>();
        for (var i = 0; i < 7; i++)
        {
            ids.Add((await api.CreateOrderAsync(customer)).Id);
        }

        await api.TransitionOkAsync(ids[1], "pay");
        await api.TransitionOkAsync(ids[4], "pay");
        await api.TransitionOkAsync(ids[5], "pay");
        var everything = (await api.ListAsync(customer)).Select(o => o.Id).ToList();
        everything.ShouldBe(Enumerable.Reverse(ids));

        var pages = await api.WalkAsync($"/customers/{customer}/orders?limit=3");
        pages.Select(p => p.Count).ShouldBe([3, 3, 1], "Link rel=next exactly while orders follow");
        pages.SelectMany(p => p).Select(o => o.Id).ShouldBe(everything);

        var paid = await api.WalkAsync($"/customers/{customer}/orders?status=paid&limit=2");
        paid.Select(p => p.Count).ShouldBe([2, 1]);
        paid.SelectMany(p => p).Select(o => o.Id).ShouldBe([ids[5], ids[4], ids[1]]);
        paid.SelectMany(p => p).ShouldAllBe(o => o.Status == "Paid");

        // A page that ends exactly at the last order has no Link.
        (await api.WalkAsync($"/customers/{customer}/orders?limit=7")).Select(p => p.Count).ShouldBe([7]);
    }

    private static async Task<OrderDto> KeyedOkAsync(OrderApi api, Guid id, string action, object? body, string key, bool replayed, string? ifMatch = null)
    {
        using var response = await api.TransitionAsync(id, action, body, ifMatch, key);
        var order = await OrderApi.ReadOrderAsync(response, HttpStatusCode.OK);
        var marked = response.Headers.TryGetValues("Idempotent-Replayed", out var values) ? values.Single() : null;
        marked.ShouldBe(replayed ? "true" : null, $"{action} with key {key}: Idempotent-Replayed");
        response.Headers.ETag.ShouldNotBeNull("an answered order carries its ETag").Tag
            .ShouldBe($"\"{order.Version}\"", "the ETag is the version of the order answered");
        return order;
    }

    private static async Task ShouldBeKeyReusedAsync(OrderApi api, Guid id, string action, object? body, string key)
    {
        using var response = await api.TransitionAsync(id, action, body, idempotencyKey: key);
        var problem = await OrderApi.ReadProblemAsync(response, HttpStatusCode.UnprocessableEntity);
        problem["type"]!.GetValue<string>().ShouldBe("urn:orderservice:problem:idempotency-key-reused");
    }
}
