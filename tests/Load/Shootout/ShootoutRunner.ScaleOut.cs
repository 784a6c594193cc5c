using System.Diagnostics;
using Npgsql;
using OrderService.Load.Scenarios;

namespace OrderService.Load.Shootout;

/// <summary>
/// The Citus scale-out row (--citus-scale-out PORT): the durable relational row on Citus, during which a new worker
/// starts, joins the row's database, and <c>citus_rebalance_start</c> moves shards to it. The row is audited like every
/// row; its note gives wf/s before, during the join, during the rebalance and after.
/// </summary>
public sealed partial class ShootoutRunner
{
    public const string ScaleOutSuffix = "+scale-out";

    /// <summary>The row that runs while a worker joins: Citus's relational default.</summary>
    public static Variant ScaleOutVariant => VariantCatalog.For(StoreKind.Citus).Single(v => v.Key == "citus/relational/v1-shared-uow");

    private async Task<string?> ScaleOutMidRunAsync(
        ClosedScenario workflow,
        Task running,
        StoreTarget store,
        string connectionString,
        CancellationToken cancellationToken)
    {
        var target = (CitusTarget)store;
        var clock = Stopwatch.StartNew();
        var load = workflow.Budget;

        // The last workflow's end closes the last phase (the session ends later, once NBomber has written its reports).
        var drained = Task.WhenAny(workflow.Drained, running);
        var ended = drained.ContinueWith(_ => new ScaleOutPhases.Mark("end", clock.Elapsed, load.Finished),
            CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        var joinAt = options.Workflows / 4;
        while (load.Finished < joinAt)
        {
            if (drained.IsCompleted)
            {
                return "the run finished before the new worker was to join";
            }

            await Task.Delay(10, cancellationToken).ConfigureAwait(false);
        }

        var marks = new List<ScaleOutPhases.Mark> { new("before", TimeSpan.Zero, 0), new("joining", clock.Elapsed, load.Finished) };
        var database = new NpgsqlConnectionStringBuilder(connectionString).Database!;
        var worker = await CitusNewWorker.StartAsync(options.CitusEngineDirectory!, options.CitusScaleOutPort!.Value).ConfigureAwait(false);
        target.StopAfterwards(worker);
        await worker.JoinAsync(target.AdminConnectionString, database, cancellationToken).ConfigureAwait(false);
        marks.Add(new("rebalancing", clock.Elapsed, load.Finished));
        var moved = await RebalanceAsync(new NpgsqlConnectionStringBuilder(target.AdminConnectionString) { Database = database }.ConnectionString, worker.Port, cancellationToken).ConfigureAwait(false);
        marks.Add(new("after", clock.Elapsed, load.Finished));
        var end = await ended.ConfigureAwait(false);
        var endedFirst = end.At < marks[^1].At
            ? "; the run ended before the rebalance did, so that phase ends with the run and there is no after phase: "
                + "run more workflows"
            : "";
        return $"a third worker (127.0.0.1:{worker.Port}) started after {joinAt} workflows, joined with "
            + $"citus_add_node, then citus_rebalance_start moved {moved} of the orders' shards "
            + $"(with their colocated shards) to it; "
            + $"{ScaleOutPhases.Describe(marks, end)}{endedFirst}";
    }

    /// <summary>Starts the rebalancer, waits for it, and returns how many of the orders table's shards the new worker holds.</summary>
    private static async Task<long> RebalanceAsync(string adminConnectionString, int port, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(adminConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        // Two commands, two transactions: the background job that moves the shards starts only once the job's row is
        // committed, so a wait in the transaction that scheduled it waits forever.
        foreach (var sql in new[] { "SELECT citus_rebalance_start()", "SELECT citus_rebalance_wait()" })
        {
            await using var step = new NpgsqlCommand(sql, connection) { CommandTimeout = 900 };
            await step.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
        }

        await using var count = new NpgsqlCommand("SELECT count(*) FROM citus_shards WHERE table_name = 'orders'::regclass AND nodeport = @port", connection);
        count.Parameters.AddWithValue("port", port);
        return (long)(await count.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false))!;
    }
}
