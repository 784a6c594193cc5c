using System.Diagnostics;
using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Failover;

/// <summary>
/// One failover under load: a healthy pair, the service on the multi-host string, workflows running, the disruption,
/// the first 201 to a request sent after it, a few seconds more of load, then the audit on whichever node the
/// monitor now calls primary.
/// </summary>
internal static class FailoverRun
{
    private const int WorkflowsBeforeTheDisruption = 20;
    private static readonly TimeSpan LoadAfterRecovery = TimeSpan.FromSeconds(3);

    public static async Task<FailoverReport> RunAsync(
        PgAutoFailoverCluster cluster, string disruption, Func<FailoverNode, CancellationToken, Task> disrupt,
        int clients, TimeSpan bound, CancellationToken cancellationToken)
    {
        foreach (var node in cluster.Nodes)
        {
            await cluster.RestartAsync(node, cancellationToken); // a node killed by an earlier test rejoins as the secondary
        }

        var primary = await cluster.WaitForPrimaryAndSecondaryAsync(TimeSpan.FromSeconds(90), cancellationToken);
        var other = cluster.Nodes.Single(n => n != primary);

        await using var service = new OrderServiceFactory(new Dictionary<string, string?>
        {
            ["Store:Provider"] = "PostgreSql",
            ["ConnectionStrings:Orders"] = cluster.ServiceConnectionString(),
        });
        using var http = service.CreateClient();
        http.Timeout = TimeSpan.FromSeconds(30);
        var api = new OrderApi(http, TestContext.Current.CancellationToken);
        using var load = new FailoverLoad(api, clients, maxWorkflows: 20_000);
        var runStarted = Stopwatch.GetTimestamp();
        load.Start();
        try
        {
            await WaitUntilAsync(() => load.CompletedWorkflows >= WorkflowsBeforeTheDisruption, bound, "workflows completed before the disruption", cancellationToken);
            var acknowledgedBefore = load.Acknowledged.Count;

            // Measured from the end of the disruption call: for a kill, when the processes are gone; for a switchover,
            // when pg_autoctl reports the new primary. The longest gap without a success covers the whole switch.
            var disruptionStarted = Stopwatch.GetTimestamp();
            await disrupt(primary, cancellationToken).WaitAsync(bound, cancellationToken);
            var disrupted = Stopwatch.GetTimestamp();
            var firstCreate = await load.WaitForAsync(a => a.Step == "create" && a.Status == 201, disrupted, bound, cancellationToken);
            var recovered = Stopwatch.GetElapsedTime(disrupted, firstCreate.Finished);
            await Task.Delay(LoadAfterRecovery, cancellationToken);
            await load.StopAsync();

            await cluster.WaitUntilWritableAsync(other, bound, cancellationToken);
            var audit = await AuditAsync(other, load.Acknowledged, cancellationToken);
            var report = new FailoverReport(disruption, recovered, load.LongestGapWithoutSuccess(disruptionStarted),
                Stopwatch.GetElapsedTime(runStarted), acknowledgedBefore, load, audit);
            TestContext.Current.TestOutputHelper?.WriteLine(report.ToString());
            Console.WriteLine(report.ToString());
            return report;
        }
        finally
        {
            if (!load.Stopped)
            {
                await load.StopAsync();
            }
        }
    }

    /// <summary>Every acknowledged order on the new primary: its events must be the canonical prefix, at least as long as what was acknowledged.</summary>
    private static async Task<FailoverAudit> AuditAsync(FailoverNode primary, IReadOnlyDictionary<Guid, int> acknowledged, CancellationToken cancellationToken)
    {
        var stored = new Dictionary<Guid, (int Version, string Status, string[] Events, int[] Sequences)>();
        await using (var connection = new NpgsqlConnection(PgAutoFailoverCluster.NodeConnectionString(primary)))
        {
            await connection.OpenAsync(cancellationToken);
            await using var command = new NpgsqlCommand(
                """
                SELECT o.id, o.version, o.status,
                       coalesce(array_agg(e.type ORDER BY e.sequence) FILTER (WHERE e.type IS NOT NULL), '{}'),
                       coalesce(array_agg(e.sequence ORDER BY e.sequence) FILTER (WHERE e.type IS NOT NULL), '{}')
                FROM orders o LEFT JOIN order_events e ON e.order_id = o.id
                WHERE o.id = ANY(@ids)
                GROUP BY o.id, o.version, o.status
                """, connection);
            command.Parameters.AddWithValue("ids", acknowledged.Keys.ToArray());
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                stored[reader.GetGuid(0)] = (reader.GetInt32(1), reader.GetString(2), reader.GetFieldValue<string[]>(3), reader.GetFieldValue<int[]>(4));
            }
        }

        var lost = new List<string>();
        var wrong = new List<string>();
        foreach (var (id, steps) in acknowledged)
        {
            if (!stored.TryGetValue(id, out var order))
            {
                lost.Add($"{id}: acknowledged {steps} step(s), not stored");
                continue;
            }

            var canonical = FailoverLoad.EventTypes.Take(order.Events.Length).ToArray();
            if (!order.Events.SequenceEqual(canonical) || !order.Sequences.SequenceEqual(Enumerable.Range(1, order.Events.Length))
                || order.Version != order.Events.Length || order.Status != order.Events[^1])
            {
                wrong.Add($"{id}: version {order.Version}, status {order.Status}, events {string.Join(',', order.Events)}");
            }
            else if (order.Events.Length < steps)
            {
                lost.Add($"{id}: acknowledged {steps} step(s), stored {string.Join(',', order.Events)}");
            }
        }

        return new FailoverAudit(acknowledged.Count, acknowledged.Values.Sum(), lost, wrong);
    }

    private static async Task WaitUntilAsync(Func<bool> condition, TimeSpan bound, string what, CancellationToken cancellationToken)
    {
        var deadline = Stopwatch.GetTimestamp() + (long)(bound.TotalSeconds * Stopwatch.Frequency);
        while (!condition())
        {
            if (Stopwatch.GetTimestamp() > deadline)
            {
                throw new TimeoutException($"Not reached within {bound.TotalSeconds:0} s: {what}.");
            }

            await Task.Delay(50, cancellationToken);
        }
    }
}

internal sealed record FailoverAudit(int Orders, int Steps, IReadOnlyList<string> Lost, IReadOnlyList<string> Wrong);

internal sealed record FailoverReport(string Disruption, TimeSpan FirstCreateAfter, TimeSpan LongestGap, TimeSpan RunTime, int OrdersBefore, FailoverLoad Load, FailoverAudit Audit)
{
    public IReadOnlyList<FailoverLoad.Answer> Unexpected =>
        Load.Answers.Where(a => a.Status is not (200 or 201 or 503) || (a.Status == 503 && !a.RetryAfter)).ToList();

    public void ShouldBeClean(bool lossAllowed)
    {
        Unexpected.ShouldBeEmpty($"only 200/201, or 503 with Retry-After; got {string.Join("; ", Unexpected.Take(5).Select(a => $"{a.Step} {a.Status} {a.Detail}"))}");
        Audit.Wrong.ShouldBeEmpty("an acknowledged workflow must never be stored wrong");
        if (!lossAllowed)
        {
            Audit.Lost.ShouldBeEmpty("synchronous replication: no acknowledged step may be lost");
        }

        Audit.Orders.ShouldBeGreaterThan(OrdersBefore, "workflows were acknowledged after the disruption too");
    }

    public override string ToString()
    {
        var byStatus = string.Join(", ", Load.Answers.GroupBy(a => a.Status).OrderBy(g => g.Key).Select(g => $"{g.Key}: {g.Count()}"));
        return FormattableString.Invariant($"FAILOVER {Disruption}: first 201 answered {FirstCreateAfter.TotalSeconds:0.0} s after it; no success for {LongestGap.TotalSeconds:0.0} s at most; ") +
            FormattableString.Invariant($"answers {byStatus}; acknowledged {Audit.Orders} orders ({Load.CompletedWorkflows} completed workflows, {Audit.Steps} steps), ") +
            FormattableString.Invariant($"lost {Audit.Lost.Count} orders, wrong {Audit.Wrong.Count}; run {RunTime.TotalSeconds:0.0} s") +
            (Audit.Lost.Count > 0 ? $"; lost e.g. {string.Join("; ", Audit.Lost.Take(3))}" : "");
    }
}
