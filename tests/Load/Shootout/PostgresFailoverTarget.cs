using System.Diagnostics;
using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>
/// PostgreSQL on a pg_auto_failover formation of the harness's own (a monitor, a primary and a secondary on this machine,
/// <see cref="PgAutoFailoverCluster"/>), one formation per row. The service gets the multi-host connection string
/// (Target Session Attributes=primary); the crash is kill -9 of the primary's keeper and PostgreSQL, and the monitor,
/// never the harness, promotes the secondary. With asynchronous replication the primary acknowledges commits the
/// secondary may not have yet: the audit on the new primary counts what that setting lost.
/// </summary>
public sealed class PostgresFailoverTarget : StoreTarget
{
    private readonly PgAutoFailoverCluster _cluster;
    private readonly bool _synchronous;

    private PostgresFailoverTarget(PgAutoFailoverCluster cluster, bool synchronous)
    {
        _cluster = cluster;
        _synchronous = synchronous;
    }

    public static async Task<PostgresFailoverTarget> StartAsync(bool synchronous, CancellationToken cancellationToken)
    {
        var cluster = await PgAutoFailoverCluster.StartAsync(synchronous, cancellationToken).ConfigureAwait(false);
        try
        {
            await cluster.WaitForPrimaryAndSecondaryAsync(TimeSpan.FromMinutes(3), cancellationToken).ConfigureAwait(false);
            return new PostgresFailoverTarget(cluster, synchronous);
        }
        catch
        {
            await cluster.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>The failover row of <paramref name="variant"/>: its own key, and durable only with synchronous replication.</summary>
    public static Variant RowOf(Variant variant, bool synchronous) => variant with
    {
        Name = $"{variant.Name}-failover-{Mode(synchronous)}",
        Durable = synchronous,
        Durability = synchronous
            ? $"{variant.Durability}; synchronous replication: a commit is acknowledged once the secondary has it"
            : $"{variant.Durability}; asynchronous replication: acknowledged before the secondary has it, so a failover loses what was not shipped yet",
    };

    public static string Mode(bool synchronous) => synchronous ? "sync" : "async";

    public override StoreKind Store => StoreKind.PostgreSql;

    public override bool OwnsProcess => true;

    public override string Description =>
        $"pg_auto_failover formations of the harness's own for the failover rows (a monitor, a primary and a secondary on this machine, {Mode(_synchronous)} replication, the monitor's health checks tightened as in the failover tests; one formation per row)";

    public override IEnumerable<string> Notes =>
    [
        "Failover rows: a pg_auto_failover formation of the harness's own per row (monitor, primary, secondary); the service on the multi-host connection string (Target Session Attributes=primary, Host Recheck Seconds=1); kill -9 of the primary's keeper and PostgreSQL a third of the way in; the monitor promotes the secondary by itself; the clients retry with the same Idempotency-Key / If-Match; the audit reads the new primary. The monitor's health checks are tightened (4 s to call a node unhealthy, 4 s demote timeout), which is safe only because the old primary is surely dead; with pg_auto_failover's defaults expect about 50 s of 503 instead. With asynchronous replication a lost acknowledged workflow is the setting's price, shown, not a fault of the service.",
    ];

    public override Task<string> FreshDatabaseAsync(string name, CancellationToken cancellationToken) =>
        Task.FromResult(_cluster.ServiceConnectionString());

    public override Task<string>? CrashAndRestartAsync(int workflowsDone) => FailOverAsync(workflowsDone);

    private async Task<string> FailOverAsync(int workflowsDone)
    {
        var primary = await _cluster.WaitForPrimaryAndSecondaryAsync(TimeSpan.FromSeconds(30), CancellationToken.None).ConfigureAwait(false);
        var secondary = _cluster.Nodes.Single(n => n != primary);
        var clock = Stopwatch.StartNew();
        _cluster.Kill(primary);
        await _cluster.WaitUntilWritableAsync(secondary, TimeSpan.FromMinutes(3), CancellationToken.None).ConfigureAwait(false);
        return EngineProbe.Invariant(
            $"kill -9 of the primary ({primary.Name}: keeper and PostgreSQL) after {workflowsDone} workflows; the monitor promoted {secondary.Name} {clock.Elapsed.TotalSeconds:F1} s later ({Mode(_synchronous)} replication); the old primary stayed down");
    }

    public override async ValueTask DisposeAsync()
    {
        await _cluster.DisposeAsync().ConfigureAwait(false);
        await base.DisposeAsync().ConfigureAwait(false);
    }
}
