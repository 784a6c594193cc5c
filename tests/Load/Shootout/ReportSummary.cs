using System.Globalization;
using System.Text;

namespace OrderService.Load.Shootout;

/// <summary>
/// `--median-of a.json b.json c.json`: the side-by-side figures of several runs of one command, each as
/// "median (min–max)", in the layout of docs/performance.md's tables. Runs are matched by store, layout and variant.
/// </summary>
public static class ReportSummary
{
    public static string Markdown(IReadOnlyList<ShootoutReport> reports)
    {
        var runs = reports.Select(r => SideBySide.For(r).ToList()).ToList();
        var pgbench = reports.Select(r => SideBySide.Pgbench(r)?.WorkflowsPerSecond).ToList();
        var md = new StringBuilder();
        md.AppendLine(Invariant($"Median (min–max) of {reports.Count} runs; {reports[0].Header.Workflows:N0} workflows at {reports[0].Header.Concurrency} copies. Command: `{reports[0].Header.Command}`")).AppendLine();
        md.AppendLine(SideBySide.Header).AppendLine(SideBySide.Separator);
        foreach (var first in runs[0])
        {
            var same = runs.Select(run => run.FirstOrDefault(f => f.Store == first.Store && f.Layout == first.Layout && f.Variant == first.Variant)).OfType<SideBySide.Figures>().ToList();
            md.AppendLine($"| {first.Store} | {first.Layout} | {first.Variant} | {Spread(same, f => f.WorkflowsPerSecond, "F0")} | {Spread(same, f => f.RawWorkflowsPerSecond, "F0")} | "
                + $"{Spread(same, f => f.HttpToRaw, "F2")} | {Spread(same, f => f.TimesPgbench, "F2")} | {Spread(same, f => f.RawTimesPgbench, "F2")} | "
                + $"{Spread(same, f => f.ServiceCpuMs, "F3")} | {Spread(same, f => f.DriverCpuMs, "F3")} | {Spread(same, f => f.RawCpuMs, "F3")} | {Spread(same, f => f.BaselineCpuMs, "F3")} | "
                + $"{Spread(same, f => f.CpuToBaseline, "F2")} | {Spread(same, f => f.BaselineWorkflowsPerSecond, "F0")} | "
                + $"{Spread(same, f => f.PeakMegabytes, "F0")} | {Spread(same, f => f.BaselinePeakMegabytes, "F0")} |");
        }

        if (pgbench.Any(p => p is not null))
        {
            md.AppendLine().AppendLine($"pgbench (the same four transactions as plain SQL): {Spread(pgbench, p => p, "F0")} wf/s");
            MachineCpuLines(md, reports);
        }

        var flagged = reports.SelectMany(r => r.Rows).Count(r => r.Conditions is { Flags.Length: > 0 });
        if (flagged > 0)
        {
            md.AppendLine().AppendLine($"{flagged} run(s) were flagged short or noisy (see each report's Run conditions): quote these figures with care.");
        }

        return md.ToString();
    }

    /// <summary>
    /// The machine's CPU per workflow (MachineCpu) over the runs: pgbench's, and for each PostgreSQL row of the build under
    /// test its own and the × pgbench that CPU predicts, beside the measured ratio above.
    /// </summary>
    private static void MachineCpuLines(StringBuilder md, IReadOnlyList<ShootoutReport> reports)
    {
        var references = reports.Select(SideBySide.Pgbench).ToList();
        if (references.All(r => r is null || MachineCpu.Sum(r) is null))
        {
            return;
        }

        md.AppendLine().AppendLine($"pgbench's CPU per workflow on this machine (its client + the server): {Spread(references, r => r is null ? null : MachineCpu.Sum(r), "F3")} ms");
        foreach (var first in reports[0].Rows.Where(r => r.DatabaseCpuMsPerWorkflow is not null && r.ServiceBuild is null && !r.Crash))
        {
            var same = reports.Select(r => (Row: r.Rows.FirstOrDefault(x => x.Key == first.Key), Pgbench: SideBySide.Pgbench(r))).Where(x => x.Row is not null).ToList();
            md.AppendLine().AppendLine($"{first.Key}: CPU per workflow on this machine (service + driver + server) {Spread(same, x => MachineCpu.Sum(x.Row!), "F3")} ms; "
                + $"the × pgbench it predicts {Spread(same, x => MachineCpu.Predicted(x.Row!, x.Pgbench), "F2")}");
        }
    }

    /// <summary>"median (min–max)" over the runs that have the figure; "–" when none has it.</summary>
    internal static string Spread<T>(IEnumerable<T> runs, Func<T, double?> figure, string format)
    {
        var values = runs.Select(figure).OfType<double>().Order().ToList();
        if (values.Count == 0)
        {
            return "–";
        }

        var median = values.Count % 2 == 1 ? values[values.Count / 2] : (values[(values.Count / 2) - 1] + values[values.Count / 2]) / 2;
        return values.Count == 1
            ? median.ToString(format, CultureInfo.InvariantCulture)
            : Invariant($"{median.ToString(format, CultureInfo.InvariantCulture)} ({values[0].ToString(format, CultureInfo.InvariantCulture)}–{values[^1].ToString(format, CultureInfo.InvariantCulture)})");
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
