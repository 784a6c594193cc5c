using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>The comparisons the team asked for, stated in words: service vs pgbench, group commit vs straightforward, HTTP vs raw.</summary>
public static class Ratios
{
    /// <summary>
    /// Where the targets live. A report names the ratios that have one and points there rather than print a value of
    /// its own, so a target that changes is changed in one table and never contradicts a report.
    /// </summary>
    public const string TargetsTable = "docs/performance.md#targets";

    private const string HasTarget = " (target: " + TargetsTable + ")";

    // Each store's default (group commit) against its "straightforward" row, which commits every request on its own.
    private static readonly (string Store, string Words, string Target)[] GroupCommitComparisons =
    [
        ("sqlite", "SQLite group commit at synchronous=FULL", HasTarget),
        ("postgres", "PostgreSQL group commit at synchronous_commit=on", ""),
    ];

    public static IEnumerable<string> Describe(ShootoutReport report)
    {
        var rows = report.Rows.Where(r => !r.Crash && r.Failure is null && r.WorkflowsPerSecond > 0 && r.ServiceBuild is null).ToList();

        var pgbench = report.References.FirstOrDefault(r => r.Store == "postgres" && r.Name.StartsWith("pgbench", StringComparison.Ordinal));
        var bestPostgres = rows.Where(r => r.Store == "postgres" && r.Durable).MaxBy(r => r.WorkflowsPerSecond);
        if (pgbench is not null && bestPostgres is not null)
        {
            var ratio = bestPostgres.WorkflowsPerSecond / pgbench.WorkflowsPerSecond;
            yield return Invariant($"PostgreSQL service vs pgbench: best durable variant {bestPostgres.Layout}/{bestPostgres.Variant} {bestPostgres.WorkflowsPerSecond:F0} wf/s ÷ pgbench {pgbench.WorkflowsPerSecond:F0} wf/s = **{ratio:F2}×**");
            var relational = rows.FirstOrDefault(r => r.Store == "postgres" && r.Layout == "Relational" && r.Variant == "v1-shared-uow");
            if (relational is not null)
            {
                yield return Invariant($"PostgreSQL relational v1-shared-uow (the default settings: one statement per step, group commit) vs pgbench: {relational.WorkflowsPerSecond:F0} ÷ {pgbench.WorkflowsPerSecond:F0} = **{relational.WorkflowsPerSecond / pgbench.WorkflowsPerSecond:F2}×**{HasTarget}");
            }
        }

        foreach (var line in Citus(rows, report.References))
        {
            yield return line;
        }

        foreach (var (store, words, target) in GroupCommitComparisons)
        {
            var straightforward = rows.FirstOrDefault(r => r.Store == store && r.Layout == "Relational" && r.Variant == "straightforward");
            var groupCommit = rows.FirstOrDefault(r => r.Store == store && r.Layout == "Relational" && r.Variant == "v1-shared-uow");
            if (straightforward is not null && groupCommit is not null)
            {
                var ratio = groupCommit.WorkflowsPerSecond / straightforward.WorkflowsPerSecond;
                yield return Invariant($"{words}: v1-shared-uow {groupCommit.WorkflowsPerSecond:F0} wf/s ÷ straightforward {straightforward.WorkflowsPerSecond:F0} wf/s = **{ratio:F2}×**{target}");
            }
        }

        foreach (var exporting in rows.Where(r => r.Variant.EndsWith(Variant.OtlpSuffix, StringComparison.Ordinal)))
        {
            var quiet = rows.FirstOrDefault(r => r.Store == exporting.Store && r.Layout == exporting.Layout && r.Variant == exporting.Variant[..^Variant.OtlpSuffix.Length]);
            if (quiet is not null)
            {
                yield return Invariant($"Telemetry cost, {exporting.Store} {quiet.Layout}/{quiet.Variant}: exporting {exporting.WorkflowsPerSecond:F0} wf/s ÷ no endpoint {quiet.WorkflowsPerSecond:F0} wf/s = **{exporting.WorkflowsPerSecond / quiet.WorkflowsPerSecond:F2}×**");
            }
        }

        foreach (var store in rows.GroupBy(r => r.Store))
        {
            var ratios = store.Where(r => r.HttpToRawRatio is not null).Select(r => $"{r.Layout}/{r.Variant} {r.HttpToRawRatio!.Value.ToString("F2", CultureInfo.InvariantCulture)}").ToList();
            if (ratios.Count > 0)
            {
                yield return $"{store.Key} HTTP/raw (service wf/s ÷ store-port wf/s at the same concurrency): {string.Join(", ", ratios)}";
            }
        }

        foreach (var line in CpuAgainstBaseline(report))
        {
            yield return line;
        }
    }

    /// <summary>
    /// Each Citus row against the PostgreSQL row of the same layout and name (single-node, same run), and against
    /// pgbench on the Citus coordinator and on single-node PostgreSQL.
    /// </summary>
    private static IEnumerable<string> Citus(IReadOnlyList<VariantResult> rows, IReadOnlyList<ReferenceResult> references)
    {
        var pgbenchCitus = references.FirstOrDefault(r => r.Store == "citus" && r.WorkflowsPerSecond > 0);
        var pgbenchPostgres = references.FirstOrDefault(r => r.Store == "postgres" && r.WorkflowsPerSecond > 0);
        if (pgbenchCitus is not null && pgbenchPostgres is not null)
        {
            yield return Invariant($"pgbench on the Citus coordinator ÷ pgbench on single-node PostgreSQL: {pgbenchCitus.WorkflowsPerSecond:F0} ÷ {pgbenchPostgres.WorkflowsPerSecond:F0} = **{pgbenchCitus.WorkflowsPerSecond / pgbenchPostgres.WorkflowsPerSecond:F2}×**");
        }

        foreach (var citus in rows.Where(r => r.Store == "citus"))
        {
            var single = rows.FirstOrDefault(r => r.Store == "postgres" && r.Layout == citus.Layout && r.Variant == citus.Variant && r.Replicas == citus.Replicas);
            var parts = new List<string>();
            if (single is not null)
            {
                parts.Add(Invariant($"÷ single-node PostgreSQL {single.WorkflowsPerSecond:F0} wf/s = **{citus.WorkflowsPerSecond / single.WorkflowsPerSecond:F2}×**"));
            }

            if (pgbenchCitus is not null)
            {
                parts.Add(Invariant($"÷ pgbench on Citus {pgbenchCitus.WorkflowsPerSecond:F0} wf/s = **{citus.WorkflowsPerSecond / pgbenchCitus.WorkflowsPerSecond:F2}×**"));
            }

            if (parts.Count > 0)
            {
                yield return Invariant($"Citus {citus.Layout}/{citus.Variant} {citus.WorkflowsPerSecond:F0} wf/s {string.Join("; ", parts)}");
            }
        }
    }

    /// <summary>Service CPU per workflow against the --baseline-commit build of the same variant, measured in the same run.</summary>
    private static IEnumerable<string> CpuAgainstBaseline(ShootoutReport report) =>
        SideBySide.For(report).Where(f => f.CpuToBaseline is not null).Select(f => Invariant(
            $"Service CPU per workflow, {f.Store} {f.Layout}/{f.Variant}: {f.ServiceCpuMs:F3} ms now ÷ {f.BaselineCpuMs:F3} ms at {f.BaselineCommit} = **{f.CpuToBaseline:F2}×**{HasTarget}"));

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
