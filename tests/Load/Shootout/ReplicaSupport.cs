using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// Which stores the shoot-out runs with more than one service process, and what the report says about such rows.
/// </summary>
public static class ReplicaSupport
{
    /// <summary>
    /// SQLite lives inside the service process: its group-commit writer and locks are per process, so a second process
    /// on the same file meets the first only at the file lock. Tried by hand (two processes, WAL, busy_timeout, 200
    /// workflows at 20 copies, each crossing both): nothing acknowledged was lost, but 11% of the workflows failed
    /// (503, the busy file lock opening the circuit), and some writes that had committed were answered 409 or 503.
    /// </summary>
    public const string SqliteReason = "SQLite lives inside the service process: a second process on the same file shares its one write lock and the same cores, so it adds no throughput; SQLite rows run as one replica";

    /// <summary>Null when <paramref name="store"/> runs with <paramref name="replicas"/> processes; otherwise the reason it does not.</summary>
    public static string? WhyNot(StoreKind store, int replicas) =>
        replicas > 1 && store == StoreKind.Sqlite ? SqliteReason : null;

    /// <summary>The key and name suffix of a row served by several processes ("+2replicas"); none for one.</summary>
    public static string Suffix(int replicas) => replicas > 1 ? $"+{replicas}replicas" : "";

    public static IEnumerable<string> Notes(ShootoutOptions options, IReadOnlyList<VariantResult> rows)
    {
        if (!rows.Any(r => r.Replicas > 1))
        {
            yield break;
        }

        yield return $"Rows named +Nreplicas ran N service processes on one database; part i of workflow w went to process (w + i) mod N, so every workflow crossed processes (Idempotency-Key, If-Match and the event sequence held across them when lost, duplicates and wrong sequences are 0). The N processes, the driver and the database share this machine's {Environment.ProcessorCount} cores: more processes add no CPU here, so the figure shows what the hand-off between processes costs, not what scaling out to more machines would buy. Service CPU per workflow sums the processes. The raw baseline runs beside the single-process row only.";
        // Per variant: wf/s and the audit for each replica count, and how the CPU spread over the processes.
        foreach (var group in rows.Where(r => !r.Crash && r.Failure is null).GroupBy(r => r.Key[..^Suffix(r.Replicas).Length]).Where(g => g.Any(r => r.Replicas > 1)))
        {
            var single = group.FirstOrDefault(r => r.Replicas == 1)?.WorkflowsPerSecond;
            var parts = group.OrderBy(r => r.Replicas).Select(r => string.Create(CultureInfo.InvariantCulture,
                $"{r.Replicas} process{(r.Replicas == 1 ? "" : "es")}: {r.WorkflowsPerSecond:F0} wf/s{(single is > 0 && r.Replicas > 1 ? $" ({r.WorkflowsPerSecond / single:F2}× one)" : "")}, audit {(r.Audit is { } a ? $"lost {a.Lost}, duplicates {a.Duplicates}, wrong sequences {a.WrongSequences}" : "none")}{CpuSpread(r)}"));
            yield return $"Replicas, {group.Key}: {string.Join("; ", parts)}.";
        }

        if (options.Stores.Contains(StoreKind.Sqlite))
        {
            yield return $"SQLite rows with more than one process were skipped: {SqliteReason}.";
        }
    }

    private static string CpuSpread(VariantResult row) =>
        row.ReplicaCpuSeconds is { Count: > 1 } cpu
            ? " (CPU s per process " + string.Join(" / ", cpu.Select(c => c.ToString("F1", CultureInfo.InvariantCulture))) + ")"
            : "";
}
