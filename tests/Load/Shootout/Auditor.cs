using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>What the audit found after a run. Every count must be 0 for a durable variant (dirty reads aside: they measure the read isolation).</summary>
public sealed record AuditResult(
    long Acknowledged,
    long Lost,
    long WrongSequences,
    long Duplicates,
    long DirtyReads,
    long WritesHeld,
    long ProbeReads,
    long StoredUnacknowledged,
    IReadOnlyList<string> Samples)
{
    public bool IsClean => Lost == 0 && WrongSequences == 0 && Duplicates == 0;
}

/// <summary>
/// Reads the store back through the port after a run and compares it with what the clients were told.
/// It looks at every order of the run's customers, so orders nobody acknowledged are seen too.
/// </summary>
public static class Auditor
{
    private static readonly string[] CompletedTrail = ["Created", "Paid", "Shipped", "Completed"];
    private const int MaxSamples = 10;

    public static async Task<AuditResult> AuditAsync(IOrderStore store, RunLedger ledger, CancellationToken cancellationToken)
    {
        var stored = new Dictionary<Guid, Order>();
        long repeatedOrders = 0;
        foreach (var customer in ledger.Customers)
        {
            // Every page: a customer with more than one page of orders is audited whole.
            await foreach (var order in store.ListAllByCustomerAsync(customer, null, 1000, cancellationToken).ConfigureAwait(false))
            {
                if (!stored.TryAdd(order.Id, order))
                {
                    repeatedOrders++;
                }
            }
        }

        // Acknowledged orders the listing did not show (a store bug, or an order under the wrong customer): fetch them by id.
        var missingFromListing = ledger.WorkflowsAcknowledged.Keys.Where(id => !stored.ContainsKey(id)).ToList();
        foreach (var chunk in missingFromListing.Chunk(1000))
        {
            await foreach (var order in store.GetManyAsync(chunk, cancellationToken).ConfigureAwait(false))
            {
                stored.TryAdd(order.Id, order);
            }
        }

        var samples = new List<string>();
        long lost = 0;
        foreach (var id in ledger.WorkflowsAcknowledged.Keys)
        {
            if (!stored.TryGetValue(id, out var order))
            {
                lost++;
                Sample(samples, $"lost: acknowledged order {id} is missing");
            }
            else if (!IsCompletedWithFullTrail(order))
            {
                lost++;
                Sample(samples, $"lost: acknowledged order {id} is {order.Status} v{order.Version} with events [{string.Join(',', order.Events.Select(e => $"{e.Sequence}:{e.Type}"))}]");
            }
        }

        long wrongSequences = 0;
        long repeatedEvents = 0;
        foreach (var order in stored.Values)
        {
            var sequences = order.Events.Select(e => e.Sequence).Order().ToList();
            if (sequences.Distinct().Count() != sequences.Count)
            {
                repeatedEvents++;
                Sample(samples, $"duplicate: order {order.Id} repeats an event sequence [{string.Join(',', sequences)}]");
            }
            else if (!sequences.SequenceEqual(Enumerable.Range(1, sequences.Count)) || order.Version != sequences.Count)
            {
                wrongSequences++;
                Sample(samples, $"sequence: order {order.Id} v{order.Version} has events [{string.Join(',', sequences)}]");
            }
        }

        // Each create attempt carried its own idempotency key: more orders than attempts means a create landed twice.
        var extraOrders = Math.Max(0, stored.Count - ledger.CreatesAttempted);
        if (extraOrders > 0)
        {
            Sample(samples, $"duplicate: {stored.Count} orders stored for {ledger.CreatesAttempted} create attempts");
        }

        var storedUnacknowledged = stored.Keys.Count(id => !ledger.CreatesAcknowledged.ContainsKey(id));
        return new AuditResult(
            ledger.WorkflowsAcknowledged.Count, lost, wrongSequences, extraOrders + repeatedEvents + repeatedOrders,
            ledger.DirtyReads, ledger.WritesHeld, ledger.ProbeReads, storedUnacknowledged, samples);
    }

    private static bool IsCompletedWithFullTrail(Order order) =>
        order.Status == OrderStatus.Completed
        && order.Version == CompletedTrail.Length
        && order.Events.OrderBy(e => e.Sequence).Select(e => e.Type).SequenceEqual(CompletedTrail)
        && order.Events.Select(e => e.Sequence).Order().SequenceEqual(Enumerable.Range(1, CompletedTrail.Length));

    private static void Sample(List<string> samples, string finding)
    {
        if (samples.Count < MaxSamples)
        {
            samples.Add(finding);
        }
    }
}
