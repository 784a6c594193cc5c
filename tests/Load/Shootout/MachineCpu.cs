using System.Text;

namespace OrderService.Load.Shootout;

/// <summary>
/// The report's "The machine's CPU per workflow": for each row, what the service, the load driver and the database
/// server each spent per workflow, and their sum; the same for pgbench (its client and the server). The driver, the
/// service and the database share the cores, so throughput follows the sum: pgbench's sum ÷ a PostgreSQL row's is the
/// × pgbench that CPU alone predicts, set beside the measured one.
/// </summary>
public static class MachineCpu
{
    /// <summary>The row's CPU per workflow on this machine, in ms: service + driver (+ the database server when measured).</summary>
    public static double? Sum(VariantResult row) =>
        row.ServiceCpuMsPerWorkflow is { } service && row.DriverCpuMsPerWorkflow is { } driver ? service + driver + (row.DatabaseCpuMsPerWorkflow ?? 0) : null;

    /// <summary>pgbench's CPU per workflow on this machine (its client + the server), when both were measured.</summary>
    public static double? Sum(ReferenceResult reference) =>
        reference.ClientCpuMsPerWorkflow is { } client && reference.DatabaseCpuMsPerWorkflow is { } database ? client + database : null;

    /// <summary>pgbench's CPU per workflow ÷ the row's: the × pgbench that CPU alone predicts (null when either was not measured).</summary>
    public static double? Predicted(VariantResult row, ReferenceResult? pgbench) =>
        row.DatabaseCpuMsPerWorkflow is not null && pgbench is not null && Sum(pgbench) is { } reference && Sum(row) is { } own && own > 0 ? reference / own : null;

    public static void Append(StringBuilder md, ShootoutReport report)
    {
        var pgbench = SideBySide.Pgbench(report);
        var rows = report.Rows.Where(r => !r.Crash && r.DatabaseCpuMsPerWorkflow is not null).ToList();
        if (rows.Count == 0 && pgbench?.DatabaseCpuMsPerWorkflow is null)
        {
            return;
        }

        md.AppendLine().AppendLine("## The machine's CPU per workflow").AppendLine();
        md.AppendLine("What each process on this machine spent over the measured run ÷ workflows, in ms (user + system time from /proc): the service, "
            + "the load driver, and the database server, all of its processes (the PostgreSQL cluster the harness owns: the postmaster, its backends, "
            + "and the backends that disconnected). They share the cores, so throughput follows the sum. **Predicted**: pgbench's sum ÷ the row's, "
            + "the × pgbench the CPU alone explains, beside the measured one.").AppendLine();
        md.AppendLine("| store | layout | variant | service | driver (pgbench: its client) | database | sum | predicted × pgbench | × pgbench |");
        md.AppendLine("|---|---|---|--:|--:|--:|--:|--:|--:|");
        var pgbenchSum = pgbench is null ? null : Sum(pgbench);
        foreach (var row in rows)
        {
            var sum = Sum(row);
            var predicted = Predicted(row, pgbench);
            var measured = pgbench is { } reference ? row.WorkflowsPerSecond / reference.WorkflowsPerSecond : (double?)null;
            md.AppendLine($"| {row.Store} | {row.Layout} | {row.Variant} | {N(row.ServiceCpuMsPerWorkflow)} | {N(row.DriverCpuMsPerWorkflow)} | "
                + $"{N(row.DatabaseCpuMsPerWorkflow)} | {N(sum)} | {SideBySide.N(predicted, "F2")} | {SideBySide.N(measured, "F2")} |");
        }

        if (pgbench is not null)
        {
            md.AppendLine($"| postgres | – | pgbench | – | {N(pgbench.ClientCpuMsPerWorkflow)} | {N(pgbench.DatabaseCpuMsPerWorkflow)} | {N(pgbenchSum)} | | |");
        }
    }

    private static string N(double? milliseconds) => SideBySide.N(milliseconds, "F3");
}
