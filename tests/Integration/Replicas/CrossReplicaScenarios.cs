using System.Net;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Replicas;

/// <summary>
/// What must hold when two instances of the service share one database and a client's requests land on either:
/// one Idempotency-Key makes one order and one event whichever instance each retry reaches, If-Match is checked
/// against the database and not an instance's memory, and workflows whose steps alternate complete with the right
/// event sequence. Bounded: 40 + 40 requests, then <c>workflows</c> workflows at 16 at a time. A 503 (two SQLite
/// processes take turns at the file's write lock; a busy machine) is sent again as a client would; never a 500 or a
/// lost write.
/// </summary>
internal static class CrossReplicaScenarios
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public static async Task RunAsync(OrderApi first, OrderApi second, int workflows)
    {
        OrderApi Either(int i) => i % 2 == 0 ? first : second;

        // 40 concurrent creates with one key, spread over both: one order.
        var customer = Ids.NewCustomer();
        var createKey = Ids.NewKey();
        var creates = await Task.WhenAll(Enumerable.Range(0, 40).Select(async i =>
        {
            using var response = await OrderApi.RetryUnavailableAsync(
                () => Either(i).CreateAsync(customer, idempotencyKey: createKey), Ct);
            response.StatusCode.ShouldBeOneOf(HttpStatusCode.Created, HttpStatusCode.OK);
            return (await OrderApi.ReadOrderAsync(response, response.StatusCode)).Id;
        }));
        var id = creates.Distinct().ShouldHaveSingleItem();
        (await first.ListAsync(customer)).ShouldHaveSingleItem().Id.ShouldBe(id);

        // 40 concurrent keyed pays, spread over both: one Paid event.
        var payKey = Ids.NewKey();
        await Task.WhenAll(Enumerable.Range(0, 40).Select(async i =>
        {
            using var response = await OrderApi.RetryUnavailableAsync(
                () => Either(i).TransitionAsync(id, "pay", new { paymentReference = "once" }, idempotencyKey: payKey),
                Ct);
            await OrderApi.ShouldHaveStatusAsync(response, HttpStatusCode.OK);
        }));
        var paid = await second.GetOrderAsync(id);
        paid.Events.Select(e => e.Type).ShouldBe(["Created", "Paid"]);

        // If-Match across instances: the version one instance wrote is what the other checks.
        using (var stale = await first.TransitionAsync(id, "ship", new { carrier = "c", trackingNumber = "t" }, ifMatch: "\"1\""))
        {
            await OrderApi.ReadProblemAsync(stale, HttpStatusCode.Conflict);
        }

        (await second.TransitionOkAsync(id, "ship", new { carrier = "c", trackingNumber = "t" }, ifMatch: "\"2\"")).Version.ShouldBe(3);

        // Workflows whose steps alternate between the two instances.
        var next = -1;
        var completed = new List<Guid>[16];
        await Task.WhenAll(Enumerable.Range(0, 16).Select(async lane =>
        {
            completed[lane] = [];
            for (var i = Interlocked.Increment(ref next); i < workflows; i = Interlocked.Increment(ref next))
            {
                var customerOfWorkflow = Ids.NewCustomer();
                Guid order;
                using (var created = await OrderApi.RetryUnavailableAsync(
                    () => Either(i).CreateAsync(customerOfWorkflow, idempotencyKey: $"create-{customerOfWorkflow}"),
                    Ct))
                {
                    order = (await OrderApi.ReadOrderAsync(created, created.StatusCode == HttpStatusCode.OK ? HttpStatusCode.OK : HttpStatusCode.Created)).Id;
                }

                await StepAsync(Either(i + 1), order, "pay", new { paymentReference = "r" }, 1);
                await StepAsync(Either(i), order, "ship", new { carrier = "c", trackingNumber = "t" }, 2);
                await StepAsync(Either(i + 1), order, "complete", new { }, 3);
                completed[lane].Add(order);
            }
        }));

        // The audit, read back through the other instance: every workflow acknowledged is there, complete, in order.
        var ids = completed.SelectMany(lane => lane).ToList();
        ids.Count.ShouldBe(workflows);
        var stored = await second.BatchAsync(ids);
        stored.Count.ShouldBe(workflows, "every acknowledged workflow must be stored");
        foreach (var order in stored)
        {
            order.Status.ShouldBe("Completed");
            order.Version.ShouldBe(4);
            order.Events.Select(e => (e.Sequence, e.Type)).ShouldBe([(1, "Created"), (2, "Paid"), (3, "Shipped"), (4, "Completed")]);
        }

        Ct.ThrowIfCancellationRequested();
    }

    /// <summary>A keyed step with If-Match on the version before it; the key makes a retry after a 503 safe.</summary>
    private static async Task StepAsync(OrderApi api, Guid order, string action, object body, int version)
    {
        var key = $"{action}-{order}";
        using var response = await OrderApi.RetryUnavailableAsync(
            () => api.TransitionAsync(order, action, body, ifMatch: $"\"{version}\"", idempotencyKey: key), Ct);
        (await OrderApi.ReadOrderAsync(response, HttpStatusCode.OK)).Version.ShouldBe(version + 1);
    }
}
