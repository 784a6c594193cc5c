namespace OrderService.Load.Shootout;

/// <summary>How many rows a store will add (the live view's estimate of the time left), and what the console says about a row's conditions.</summary>
public sealed partial class ShootoutRunner
{
    private int PlannedRows(StoreKind store) => ShootoutPlan.PlannedRows(options, store);

    /// <summary>Each process's CPU seconds over the measured window, or null when /proc could not tell for one of them.</summary>
    private static List<double>? ReplicaCpuSeconds(IReadOnlyList<TimeSpan?> before, IReadOnlyList<TimeSpan?> after) =>
        before.Count == after.Count && before.All(t => t is not null) && after.All(t => t is not null)
            ? [.. before.Zip(after, (b, a) => Math.Round((a!.Value - b!.Value).TotalSeconds, 3))]
            : null;

    /// <summary>
    /// Says at once when a figure is not worth quoting. The warm-up is not scaled down to a short run: it is
    /// there to bring the service to steady state (JIT tiers, pools), which takes the same time however
    /// long the measured run is; a short run needs more workflows, not less warm-up.
    /// </summary>
    private static void WarnAboutConditions(string label, RunConditions conditions, IReadOnlyDictionary<string, double>? serviceCpuByThread)
    {
        if (ServiceThreads.Compiling(serviceCpuByThread) is { } share)
        {
            Console.WriteLine(Invariant($"   warning: {label}: the service's JIT spent {share * 100:F0}% of its CPU in the measured window: it was still compiling (the wait for its queue after the warm-up ran out, or the load reached new code), so its CPU and wf/s read worse than its steady state."));
        }

        if (conditions.IsShort)
        {
            Console.WriteLine(Invariant($"   warning: {label} ran {conditions.WallSeconds:F1} s, under {RunConditions.ShortRunSeconds:F0} s: its tail (the last copies, one GC, one checkpoint) weighs heavily and rankings can flip; use more --workflows (10000) for figures to quote."));
        }

        if (conditions.IsNoisy)
        {
            Console.WriteLine($"   warning: {label}: the machine was busy with other work around this run (before: {conditions.Before}; after: {conditions.After}); compare it with care.");
        }
    }

    private IEnumerable<(string Dll, string? Commit)> BuildsInOrder(string serviceDll, string? baselineDll)
    {
        (string, string?) twin = (serviceDll, null);
        if (baselineDll is null)
        {
            return [twin];
        }

        (string, string?) baseline = (baselineDll, options.BaselineCommit);
        return options.BaselineFirst ? [baseline, twin] : [twin, baseline];
    }

    /// <summary>The load driver is one client at one address: the rate limiter, not the service, would be measured.
    /// </summary>
    public static readonly (string Key, string Value) RateLimiterOff = ("RateLimiting__PermitLimit", "0");

    private Dictionary<string, string> ServiceEnvironment(StoreTarget target, Variant variant, string connectionString, bool underTest)
    {
        // The engine's own timeouts first (Babelfish, FerretDB: EngineProbe), so that a variant's setting wins over them.
        var environment = target.EngineSettings.ToDictionary(p => p.Key.Replace(":", "__", StringComparison.Ordinal), p => p.Value);
        foreach (var (key, value) in variant.EnvironmentVariables(connectionString))
        {
            environment[key] = value;
        }

        if (underTest)
        {
            foreach (var (key, value) in options.ServiceEnvironment)
            {
                environment[key] = value;
            }
        }

        environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        environment[RateLimiterOff.Key] = RateLimiterOff.Value;

        // The shoot-out measures the store, not token checks: no tokens, said in the settings.
        environment["Authorization__Mode"] = "None";
        environment["Logging__LogLevel__Default"] = "Warning";
        environment["Logging__LogLevel__Microsoft.AspNetCore"] = "Warning";
        return environment;
    }
}
