using System.Globalization;
using System.Text;

namespace OrderService.Load.Shootout;

/// <summary>
/// The performance report: every store and variant that ran, side by side, with the ratios the targets are stated in
/// (HTTP/raw, × pgbench, service CPU per workflow and its ratio to the --baseline-commit build of the same variant).
/// </summary>
public static class SideBySide
{
    /// <summary>The figures of one variant in one report (null: not measured in that run).</summary>
    public sealed record Figures(
        string Store, string Layout, string Variant, double WorkflowsPerSecond, double? RawWorkflowsPerSecond, double? HttpToRaw,
        double? TimesPgbench, double? RawTimesPgbench, double? ServiceCpuMs, double? DriverCpuMs, string? BaselineCommit, double? BaselineCpuMs,
        double? CpuToBaseline, double? BaselineWorkflowsPerSecond)
    {
        /// <summary>The raw run's CPU per workflow (the store port in process, with the driver loop): see <see cref="VariantResult.RawCpuMsPerWorkflow"/>.</summary>
        public double? RawCpuMs { get; init; }

        /// <summary>The service's peak resident set, in MB: see <see cref="VariantResult.ServicePeakMegabytes"/>.</summary>
        public double? PeakMegabytes { get; init; }

        /// <summary>The baseline build's peak resident set in the same variant, in MB.</summary>
        public double? BaselinePeakMegabytes { get; init; }
    }

    /// <summary>The report's pgbench reference on PostgreSQL, when it ran and measured something.</summary>
    public static ReferenceResult? Pgbench(ShootoutReport report) =>
        report.References.FirstOrDefault(r => r.Store == "postgres" && r.Name.StartsWith("pgbench", StringComparison.Ordinal) && r.WorkflowsPerSecond > 0);

    public static IEnumerable<Figures> For(ShootoutReport report)
    {
        var pgbench = Pgbench(report)?.WorkflowsPerSecond;
        var rows = report.Rows.Where(r => !r.Crash && r.Failure is null && r.WorkflowsPerSecond > 0).ToList();
        foreach (var row in rows.Where(r => r.ServiceBuild is null))
        {
            var baseline = rows.FirstOrDefault(r => r.ServiceBuild is { } commit && r.Store == row.Store && r.Layout == row.Layout && r.Variant == $"{row.Variant}@{commit}");
            var isPostgres = row.Store == "postgres";
            yield return new Figures(
                row.Store, row.Layout, row.Variant, row.WorkflowsPerSecond, row.RawWorkflowsPerSecond, row.HttpToRawRatio,
                isPostgres && pgbench is { } p ? row.WorkflowsPerSecond / p : null,
                isPostgres && pgbench is { } q && row.RawWorkflowsPerSecond is { } raw ? raw / q : null,
                row.ServiceCpuMsPerWorkflow, row.DriverCpuMsPerWorkflow, baseline?.ServiceBuild, baseline?.ServiceCpuMsPerWorkflow,
                row.ServiceCpuMsPerWorkflow is { } now && baseline?.ServiceCpuMsPerWorkflow is { } before && before > 0 ? now / before : null,
                baseline?.WorkflowsPerSecond)
            {
                RawCpuMs = row.RawCpuMsPerWorkflow,
                PeakMegabytes = row.ServicePeakMegabytes,
                BaselinePeakMegabytes = baseline?.ServicePeakMegabytes,
            };
        }
    }

    public const string Header =
        "| store | layout | variant | wf/s | raw wf/s | HTTP/raw | × pgbench | raw × pgbench | service CPU ms/wf | driver CPU ms/wf | raw CPU ms/wf | baseline CPU ms/wf | CPU vs baseline | baseline wf/s | peak MB | baseline peak MB |";

    public const string Separator = "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|";

    public static void Append(StringBuilder md, ShootoutReport report)
    {
        var figures = For(report).ToList();
        if (figures.Count == 0)
        {
            return;
        }

        var commit = figures.Select(f => f.BaselineCommit).FirstOrDefault(c => c is not null);
        md.AppendLine().AppendLine("## Side by side").AppendLine();
        md.AppendLine($"Every store that ran, with the ratios {Ratios.TargetsTable} states its targets in. × pgbench: the row's wf/s ÷ pgbench's in this run "
            + "(PostgreSQL only). Service CPU: the service process's user + system CPU time (/proc/<pid>/stat) over the measured window ÷ workflows; "
            + "the service runs as its own process, so neither the load driver (its own column) nor the database is in it. "
            + "Raw CPU: the harness's CPU over the raw run ÷ workflows (the store port in process plus the driver loop; service − raw ≈ the HTTP path). "
            + "Peak MB: the service process's peak resident set (VmHWM) over its life, warm-up included. "
            + (commit is null
                ? "No --baseline-commit was given, so the baseline columns are empty."
                : $"Baseline: the service built from commit {commit}, run right after its twin with the same store settings; CPU vs baseline = service CPU ÷ baseline CPU.")).AppendLine();
        md.AppendLine(Header).AppendLine(Separator);
        foreach (var f in figures)
        {
            md.AppendLine(Invariant($"| {f.Store} | {f.Layout} | {f.Variant} | {f.WorkflowsPerSecond:F0} | {N(f.RawWorkflowsPerSecond, "F0")} | {N(f.HttpToRaw, "F2")} | {N(f.TimesPgbench, "F2")} | {N(f.RawTimesPgbench, "F2")} | ")
                + Invariant($"{N(f.ServiceCpuMs, "F3")} | {N(f.DriverCpuMs, "F3")} | {N(f.RawCpuMs, "F3")} | {N(f.BaselineCpuMs, "F3")} | {N(f.CpuToBaseline, "F2")} | {N(f.BaselineWorkflowsPerSecond, "F0")} | ")
                + Invariant($"{N(f.PeakMegabytes, "F0")} | {N(f.BaselinePeakMegabytes, "F0")} |"));
        }
    }

    internal static string N(double? value, string format) => value is { } v ? v.ToString(format, CultureInfo.InvariantCulture) : "–";

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
