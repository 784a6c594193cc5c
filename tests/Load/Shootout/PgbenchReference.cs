using System.Globalization;
using System.Text.RegularExpressions;
using Npgsql;

namespace OrderService.Load.Shootout;

/// <summary>A reference number beside the service's rows (pgbench, or the raw store-port limit).</summary>
public sealed record ReferenceResult(string Store, string Name, double WorkflowsPerSecond, string Detail)
{
    /// <summary>The database server's CPU over the measured run ÷ workflows, in ms, when the harness owns the server.</summary>
    public double? DatabaseCpuMsPerWorkflow { get; init; }

    /// <summary>The reference's own client (pgbench) CPU over the measured run ÷ workflows, in ms.</summary>
    public double? ClientCpuMsPerWorkflow { get; init; }

    /// <summary>pgbench's statements over the measured run, per workflow, with --pg-statements (<see cref="Shootout.DatabaseStatements"/>).</summary>
    public List<StatementCost>? DatabaseStatements { get; init; }
}

/// <summary>
/// pgbench running the same workflow as plain per-statement SQL (pgbench/workflow.sql) at the same
/// client count, on a fresh database with the service's own relational schema. One pgbench
/// transaction is one whole workflow, so its tps is workflows per second. On Citus the same script runs against the
/// coordinator, on the schema the store distributes, without the <c>customers</c> row that the store does not write there.
/// </summary>
public static partial class PgbenchReference
{
    public static async Task<ReferenceResult> RunAsync(StoreTarget target, int workflows, int clients, CancellationToken cancellationToken)
    {
        var connectionString = await target.FreshDatabaseAsync("pgbench", cancellationToken).ConfigureAwait(false);
        var schemaOwner = VariantCatalog.For(target.Store).First(v => v.Layout == "Relational");
        var citus = target.Store == StoreKind.Citus;
        await using (await StoreClient.OpenAsync(schemaOwner, connectionString, cancellationToken).ConfigureAwait(false))
        {
            // Opening the store creates the schema; pgbench writes to the same tables.
        }

        // Treated as the service's rows are: a warm-up on the same database, then ANALYZE and the CHECKPOINT before the
        // measured window, so pgbench neither meets the checkpoint the runs before it set off nor starts on a cold cache.
        var perClient = Math.Max(1, workflows / clients);
        var warmupPerClient = Math.Max(1, perClient / 2);
        await RunScriptAsync(connectionString, clients, warmupPerClient, firstCounter: 0, citus).ConfigureAwait(false);
        await target.SettleAsync(connectionString, cancellationToken).ConfigureAwait(false);
        await target.BeginStatementsAsync(connectionString, cancellationToken).ConfigureAwait(false);
        var cpuBefore = (Database: target.DatabaseCpuTime, Client: ProcessCpu.OfEndedChildrenOfSelf());
        var output = await RunScriptAsync(connectionString, clients, perClient, firstCounter: warmupPerClient, citus).ConfigureAwait(false);
        var cpuAfter = (Database: target.DatabaseCpuTime, Client: ProcessCpu.OfEndedChildrenOfSelf());

        var tps = TpsLine().Match(output);
        if (!tps.Success)
        {
            throw new InvalidOperationException($"pgbench printed no tps line:\n{output}");
        }

        var expected = (long)perClient * clients;
        var statements = await target.StatementsAsync(connectionString, expected, cancellationToken).ConfigureAwait(false);
        var completed = await CountCompletedAsync(connectionString, cancellationToken).ConfigureAwait(false);
        if (completed != expected + (long)warmupPerClient * clients)
        {
            throw new InvalidOperationException($"pgbench completed {completed} workflows, expected {expected} after {warmupPerClient * clients} of warm-up:\n{output}");
        }

        return new ReferenceResult(Variant.StoreName(target.Store), citus ? "pgbench on the Citus coordinator (plain per-statement SQL)" : "pgbench (plain per-statement SQL)",
            double.Parse(tps.Groups[1].Value, CultureInfo.InvariantCulture),
            citus
                ? $"{expected} workflows at {clients} clients after {warmupPerClient * clients} of warm-up, ANALYZE and a CHECKPOINT, -M prepared, synchronous_commit=on; each workflow = 4 transactions, 13 statements, each routed to the order's shard (no customers row)"
                : $"{expected} workflows at {clients} clients after {warmupPerClient * clients} of warm-up, ANALYZE and a CHECKPOINT, -M prepared, synchronous_commit=on; each workflow = 4 transactions, 14 statements")
        {
            DatabaseCpuMsPerWorkflow = ProcessCpu.MillisecondsPerWorkflow(cpuBefore.Database, cpuAfter.Database, expected),
            ClientCpuMsPerWorkflow = ProcessCpu.MillisecondsPerWorkflow(cpuBefore.Client, cpuAfter.Client, expected),
            DatabaseStatements = statements,
        };
    }

    /// <summary>
    /// Runs the workflow script; each client's counter starts at <paramref name="firstCounter"/>, so that a second run on
    /// the same database makes new order ids (workflow.sql).
    /// </summary>
    private static async Task<string> RunScriptAsync(string connectionString, int clients, int perClient, int firstCounter, bool citus)
    {
        var builder = new NpgsqlConnectionStringBuilder(connectionString);
        var script = Path.Combine(AppContext.BaseDirectory, "pgbench", "workflow.sql");
        var environment = new Dictionary<string, string> { ["PGPASSWORD"] = builder.Password ?? "" };
        var bin = PostgresTarget.BinDirectory ?? throw new InvalidOperationException("pgbench is not installed.");
        var result = await Shell.RunAsync(Path.Combine(bin, "pgbench"),
        [
            "-n", "-M", "prepared", "-c", Invariant(clients), "-j", Invariant(Math.Max(1, Environment.ProcessorCount)),
            "-t", Invariant(perClient), "-D", $"n={Invariant(firstCounter)}", "-D", citus ? "customers=0" : "customers=1", "-f", script,
            "-h", builder.Host ?? "127.0.0.1", "-p", Invariant(builder.Port), "-U", builder.Username ?? "postgres", builder.Database!,
        ], TimeSpan.FromMinutes(30), environment).ConfigureAwait(false);
        result.EnsureSuccess("pgbench");
        return result.Output;
    }

    private static async Task<long> CountCompletedAsync(string connectionString, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        await using var command = new NpgsqlCommand(
            // Grouped by the order id, so that Citus pushes it down to the shards (it refuses the correlated subquery).
            "SELECT count(*) FROM (SELECT o.id FROM orders o JOIN order_events e ON e.order_id = o.id WHERE o.status = 'Completed' GROUP BY o.id HAVING count(*) = 4) c", connection);
        return (long)(await command.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false))!;
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);

    [GeneratedRegex(@"tps = ([0-9.]+) \(without initial connection time\)")]
    private static partial Regex TpsLine();
}
