using System.Globalization;
using System.Text;

namespace OrderService.Load.Shootout;

/// <summary>
/// The report's "Where the service's CPU went": each row's service CPU per workflow split by the kind of thread that
/// spent it (<see cref="ThreadCpu"/>). It tells a slower request path (thread pool, sockets) from a JIT still
/// compiling after the warm-up or a GC working harder, which one CPU figure per row cannot.
/// </summary>
public static class ServiceThreads
{
    /// <summary>At or above this share of the service's CPU in the measured window, the JIT is flagged: the warm-up ended too soon.</summary>
    public const double CompilingShare = 0.05;

    /// <summary>The JIT's share of a row's service CPU (<see cref="VariantResult.ServiceCpuByThread"/>) when it reaches <see cref="CompilingShare"/>, else null.</summary>
    public static double? Compiling(IReadOnlyDictionary<string, double>? byThread)
    {
        if (byThread is null)
        {
            return null;
        }

        var total = byThread.Values.Sum();
        var share = total > 0 ? byThread.GetValueOrDefault(ThreadCpu.Jit) / total : 0;
        return share >= CompilingShare ? share : null;
    }

    public static void Append(StringBuilder md, ShootoutReport report)
    {
        var rows = report.Rows.Where(r => r.ServiceCpuByThread is { Count: > 0 }).ToList();
        if (rows.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Where the service's CPU went").AppendLine();
        md.AppendLine("The service CPU column above, in ms per workflow, split by the kind of thread that spent it (/proc/<pid>/task/<tid>/stat over the measured window): "
            + "**thread pool**: request work (Kestrel, the endpoints, the store's calls and continuations); **sockets**: the socket engine's event loop; "
            + "**GC**: the garbage collector's and finalizer's threads; **JIT**: the tiered compiler recompiling hot methods; **store writer**: the SQLite store's "
            + "group-commit thread; **ended threads**: threads that ended within the window. "
            + Invariant($"A JIT at {CompilingShare * 100:F0}% or more of the row's CPU is in bold: the service was still compiling after its warm-up, and the row reads high.")).AppendLine();
        md.AppendLine("| store | layout | variant | service CPU ms/wf | " + string.Join(" | ", ThreadCpu.Kinds) + " |");
        md.AppendLine("|---|---|---|--:|" + string.Concat(ThreadCpu.Kinds.Select(_ => "--:|")));
        foreach (var row in rows)
        {
            var byThread = row.ServiceCpuByThread!;
            var compiling = Compiling(byThread) is not null;
            var cells = ThreadCpu.Kinds.Select(kind => Cell(byThread.GetValueOrDefault(kind), bold: compiling && kind == ThreadCpu.Jit));
            md.AppendLine($"| {row.Store} | {row.Layout} | {row.Variant} | {SideBySide.N(row.ServiceCpuMsPerWorkflow, "F3")} | {string.Join(" | ", cells)} |");
        }
    }

    private static string Cell(double milliseconds, bool bold)
    {
        var text = milliseconds.ToString("F3", CultureInfo.InvariantCulture);
        return bold ? $"**{text}**" : text;
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
