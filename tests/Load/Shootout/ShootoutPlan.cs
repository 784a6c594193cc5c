using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// What a shoot-out will run, worked out from its options alone: the rows per store, and the selectors that select
/// nothing. The runner sizes its estimate from <see cref="PlannedRows"/>; --plan-only prints <see cref="Print"/> and
/// stops, so the doc tests can run every documented command through the real parser without publishing or starting
/// anything.
/// </summary>
public static class ShootoutPlan
{
    private static readonly string[] LayoutSelectors = ["all", "relational", "document"];

    /// <summary>The rows one store adds: its variants per build, OTLP twin and replica count, plus its crash runs.</summary>
    public static int PlannedRows(ShootoutOptions options, StoreKind store)
    {
        var builds = options.BaselineCommit is null && options.BaselineServiceDll is null ? 1 : 2;
        var twins = options.Otlp ? 2 : 1;
        var replicaCounts = options.Replicas.Count(n => ReplicaSupport.WhyNot(store, n) is null);
        return (options.SelectedVariants(store).Count() * builds * twins * replicaCounts) + CrashRuns(options, store) + FailoverRuns(options, store) + ScaleOutRuns(options, store);
    }

    /// <summary>
    /// A variant, crash-variant or layout selector that names nothing in the catalog of any store is a typo: a run
    /// would silently leave its rows out, so it is refused before anything starts.
    /// </summary>
    public static IReadOnlyList<string> Problems(ShootoutOptions options)
    {
        var catalog = Enum.GetValues<StoreKind>().SelectMany(VariantCatalog.For).ToList();
        var problems = new List<string>();
        problems.AddRange(options.Variants.Where(s => !QuickSet.IsSelector(s) && !catalog.Any(v => v.Matches(s)))
            .Select(s => $"--variants: '{s}' names no variant (see --help for the names)."));
        problems.AddRange(options.CrashVariants.Where(s => !catalog.Any(v => v.Matches(s)))
            .Select(s => $"--crash-variants: '{s}' names no variant."));
        problems.AddRange(options.Layouts.Where(l => !LayoutSelectors.Contains(l, StringComparer.OrdinalIgnoreCase))
            .Select(l => $"--layouts: '{l}' is not one of {string.Join(", ", LayoutSelectors)}."));
        if (options.Stores.Contains(StoreKind.Citus) && options.CitusConnectionString is null)
        {
            problems.Add("--stores citus: name the coordinator with --citus \"<conn>\" (the last line of ../shared/engines/citus/start.sh DIR).");
        }

        if (options.CitusScaleOutPort is not null)
        {
            if (!options.Stores.Contains(StoreKind.Citus))
            {
                problems.Add("--citus-scale-out: Citus is not in the run (--citus \"<conn>\").");
            }

            if (options.CitusEngineDirectory is null)
            {
                problems.Add("--citus-scale-out: name the engine's folder with --citus-engine DIR (its binaries start the new worker).");
            }
        }

        return problems;
    }

    public static void Print(ShootoutOptions options, TextWriter output)
    {
        var ci = CultureInfo.InvariantCulture;
        output.WriteLine("Plan (--plan-only: nothing is published, started or connected to)");
        output.WriteLine(string.Create(ci, $"  workflows {options.Workflows} at concurrency {options.Concurrency}; warm-up {WarmupText(options)}; replicas {string.Join(',', options.Replicas)}; abort rate {options.AbortRate}"));
        foreach (var store in options.Stores)
        {
            var variants = options.SelectedVariants(store).Select(v => v.Key).ToList();
            output.WriteLine(string.Create(ci, $"  {Variant.StoreName(store)}: {PlannedRows(options, store)} rows ({variants.Count} variants, {CrashRuns(options, store)} crash runs, {FailoverRuns(options, store)} failover runs)"));
            foreach (var key in variants)
            {
                output.WriteLine($"    {key}");
            }

            if (ScaleOutRuns(options, store) > 0)
            {
                output.WriteLine($"    {ShootoutRunner.ScaleOutVariant.Key}{ShootoutRunner.ScaleOutSuffix} (a worker on port {options.CitusScaleOutPort} joins mid-run, then citus_rebalance_start)");
            }

            foreach (var replicas in options.Replicas.Where(n => ReplicaSupport.WhyNot(store, n) is not null))
            {
                output.WriteLine($"    with {replicas} replicas: skipped: {ReplicaSupport.WhyNot(store, replicas)}");
            }
        }

        output.WriteLine(string.Create(ci, $"  rows: {options.Stores.Sum(s => PlannedRows(options, s))} (the time left is estimated once the first row has run)"));
        output.WriteLine($"  report: {options.OutputDirectory}");
    }

    /// <summary>
    /// Crash runs need a process the harness owns: SQLite's service, PostgreSQL's throwaway cluster, or the Babelfish and
    /// FerretDB engines named by --sqlserver-engine and --mongodb-engine.
    /// </summary>
    private static int CrashRuns(ShootoutOptions options, StoreKind store)
    {
        var ownsProcess = store switch
        {
            StoreKind.Sqlite => true,
            StoreKind.PostgreSql => options.PostgresConnectionString is null,
            StoreKind.SqlServer => options.SqlServerEngineDirectory is not null,
            StoreKind.MongoDb => options.MongoEngineDirectory is not null,
            _ => false,
        };
        return ownsProcess ? options.SelectedCrashVariants(store).Count() : 0;
    }

    /// <summary>--failover sync,async: a row per mode, each on a pg_auto_failover formation of its own, after PostgreSQL's rows.</summary>
    private static int FailoverRuns(ShootoutOptions options, StoreKind store) => store == StoreKind.PostgreSql ? options.Failover.Count : 0;

    /// <summary>--citus-scale-out PORT: one Citus row during which a worker joins and shards move to it.</summary>
    private static int ScaleOutRuns(ShootoutOptions options, StoreKind store) => store == StoreKind.Citus && options.CitusScaleOutPort is not null ? 1 : 0;

    private static string WarmupText(ShootoutOptions options) =>
        options.Warmup <= 0 ? "none" : string.Create(CultureInfo.InvariantCulture, $"{(options.WarmupFixed ? "exactly" : "up to")} {options.Warmup}");
}
