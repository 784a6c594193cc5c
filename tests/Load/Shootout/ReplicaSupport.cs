namespace OrderService.Load.Shootout;

/// <summary>
/// Which stores the shoot-out runs with more than one service process, and what the report says about such rows.
/// </summary>
public static class ReplicaSupport
{
    /// <summary>
    /// SQLite lives inside the service process: a second process on the same file would bypass the first one's
    /// group-commit writer and in-process locks, so the shoot-out does not run it (deploy it as one replica).
    /// </summary>
    public const string SqliteReason = "SQLite lives inside the service process; a second process on the same file is not a supported deployment (run SQLite as one replica)";

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
        if (options.Stores.Contains(StoreKind.Sqlite))
        {
            yield return $"SQLite rows with more than one process were skipped: {SqliteReason}.";
        }
    }
}
