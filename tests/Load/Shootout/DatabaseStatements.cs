using System.Globalization;
using System.Text;
using Npgsql;

namespace OrderService.Load.Shootout;

/// <summary>One statement text (constants normalized) of a row's database over the measured window, per acknowledged workflow.</summary>
public sealed record StatementCost(string Statement, double CallsPerWorkflow, double MicrosecondsPerCall)
{
    public double MicrosecondsPerWorkflow => CallsPerWorkflow * MicrosecondsPerCall;
}

/// <summary>
/// The report's "Where PostgreSQL's time went" (<c>--pg-statements</c>): each PostgreSQL row's statements over the
/// measured window, and pgbench's, from pg_stat_statements, in calls and execution time per workflow. The service's
/// CPU and the server's are measured per process; this says which statements the server's share went to, and so what a
/// variant changes on the server. Execution time is the time inside each statement, as the server's clock saw it: no
/// parse, plan or commit, and a busy machine stretches it, so compare rows of one run.
/// </summary>
public static class DatabaseStatements
{
    /// <summary>The statements shown per row, by execution time per workflow; the rest are summed in one line.</summary>
    public const int Shown = 8;

    private const int TextLength = 160;

    /// <summary>
    /// Creates the view in the database of <paramref name="admin"/> if needed, and forgets what <paramref name="database"/>'s
    /// statements did so far.
    /// </summary>
    public static async Task ResetAsync(NpgsqlConnection admin, string database, CancellationToken cancellationToken)
    {
        await using var batch = new NpgsqlBatch(admin)
        {
            BatchCommands =
            {
                new NpgsqlBatchCommand("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"),
                new NpgsqlBatchCommand("SELECT pg_stat_statements_reset(0, d.oid, 0) FROM pg_database d WHERE d.datname = $1") { Parameters = { new NpgsqlParameter { Value = database } } },
            },
        };
        await batch.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The statements <paramref name="database"/> ran since <see cref="ResetAsync"/>, per workflow, most time first.</summary>
    public static async Task<List<StatementCost>> ReadAsync(NpgsqlConnection admin, string database, long workflows, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand(
            "SELECT regexp_replace(s.query, '\\s+', ' ', 'g'), s.calls, s.total_exec_time FROM pg_stat_statements s " +
            "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1 ORDER BY s.total_exec_time DESC", admin)
        {
            Parameters = { new NpgsqlParameter { Value = database } },
        };
        var statements = new List<StatementCost>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            var text = reader.GetString(0);
            var calls = reader.GetInt64(1);
            var milliseconds = reader.GetDouble(2);
            statements.Add(new StatementCost(text.Length > TextLength ? text[..TextLength] + "…" : text,
                Math.Round((double)calls / Math.Max(1, workflows), 3), calls == 0 ? 0 : Math.Round(milliseconds * 1000 / calls, 1)));
        }

        return statements;
    }

    public static void Append(StringBuilder md, ShootoutReport report)
    {
        var rows = report.Rows.Where(r => r.DatabaseStatements is { Count: > 0 })
            .Select(r => (r.Store, r.Layout, r.Variant, Statements: r.DatabaseStatements!))
            .Concat(report.References.Where(r => r.DatabaseStatements is { Count: > 0 })
                .Select(r => (r.Store, Layout: "–", Variant: r.Name, Statements: r.DatabaseStatements!)))
            .ToList();
        if (rows.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Where PostgreSQL's time went").AppendLine();
        md.AppendLine("Each PostgreSQL row's statements over the measured window, and pgbench's (pg_stat_statements, loaded by --pg-statements; "
            + "constants shown as $n): calls and execution time per acknowledged workflow, most time first. Execution time is the time inside "
            + "the statement as the server's clock saw it: no parse, plan or commit, and a busy machine stretches it, so compare rows of "
            + "one run. pgbench's BEGIN and COMMIT show only their first run on each connection: PostgreSQL 15 does not count a "
            + "prepared utility statement's later runs. **Share**: of the row's execution time.").AppendLine();
        md.AppendLine("| store | layout | variant | statement | calls/wf | µs/call | µs/wf | share |");
        md.AppendLine("|---|---|---|---|--:|--:|--:|--:|");
        foreach (var row in rows)
        {
            var statements = row.Statements;
            var total = statements.Sum(s => s.MicrosecondsPerWorkflow);
            foreach (var statement in statements.Take(Shown))
            {
                md.AppendLine(Invariant($"| {row.Store} | {row.Layout} | {row.Variant} | `{Cell(statement.Statement)}` | {statement.CallsPerWorkflow:F2} | {statement.MicrosecondsPerCall:F1} | {statement.MicrosecondsPerWorkflow:F1} | {Share(statement.MicrosecondsPerWorkflow, total)} |"));
            }

            if (statements.Count > Shown)
            {
                var rest = statements.Skip(Shown).ToList();
                var restTime = rest.Sum(s => s.MicrosecondsPerWorkflow);
                md.AppendLine(Invariant($"| {row.Store} | {row.Layout} | {row.Variant} | {rest.Count} other statements | {rest.Sum(s => s.CallsPerWorkflow):F2} | – | {restTime:F1} | {Share(restTime, total)} |"));
            }

            md.AppendLine(Invariant($"| {row.Store} | {row.Layout} | {row.Variant} | **all statements** | {statements.Sum(s => s.CallsPerWorkflow):F2} | – | **{total:F1}** | 100% |"));
        }
    }

    private static string Share(double part, double total) => total > 0 ? Invariant($"{part / total * 100:F0}%") : "–";

    // A table cell: a pipe would end it, a backtick would end the code span.
    private static string Cell(string statement) => statement.Replace("|", "\\|", StringComparison.Ordinal).Replace("`", "'", StringComparison.Ordinal);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
