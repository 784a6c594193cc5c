using Npgsql;
using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>
/// Citus (--citus): the PostgreSQL store with Store:PostgreSql:Distribution=Citus on a running coordinator, such as
/// ../shared/engines/citus/start.sh prints. Citus keeps its metadata per database, so each row gets a distributed
/// database of its own (made on every node, the extension in it, the workers registered: <see cref="CitusDatabases"/>),
/// and the target drops them at the end. The harness owns no process here: no crash runs.
/// </summary>
public sealed class CitusTarget : StoreTarget
{
    private readonly CitusDatabases _databases;
    private readonly string _description;

    private CitusTarget(string connectionString, CitusDatabases databases, string description)
    {
        ConnectionString = connectionString;
        _databases = databases;
        _description = description;
    }

    /// <summary>The coordinator's database <c>orders</c>, as the service's role.</summary>
    public string ConnectionString { get; }

    /// <summary>The coordinator as the superuser <c>postgres</c> (trust on the engine), for CHECKPOINT and node changes.</summary>
    public string AdminConnectionString => _databases.AdminConnectionString;

    public static async Task<CitusTarget> OpenAsync(string connectionString)
    {
        var databases = CitusDatabases.For(connectionString);
        await using var connection = new NpgsqlConnection(databases.AdminConnectionString);
        await connection.OpenAsync().ConfigureAwait(false);
        await using var command = new NpgsqlCommand(
            "SELECT citus_version(), (SELECT string_agg(nodename || ':' || nodeport, ', ' ORDER BY nodeid) FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary')", connection);
        await using var reader = await command.ExecuteReaderAsync().ConfigureAwait(false);
        await reader.ReadAsync().ConfigureAwait(false);
        var version = reader.GetString(0).Split(" on ", 2)[0];
        var workers = reader.IsDBNull(1) ? "none" : reader.GetString(1);
        var coordinator = new NpgsqlConnectionStringBuilder(connectionString);
        Console.WriteLine($"citus: {version}; coordinator {coordinator.Host}:{coordinator.Port}, workers {workers}");
        return new CitusTarget(connectionString, databases,
            $"{version}, coordinator {coordinator.Host}:{coordinator.Port}, workers {workers}; a distributed database per row (created on every node with the citus extension, the workers registered in it, the schema distributed before the service starts); Store:PostgreSql:Distribution=Citus, group commit off; the service's store attempt 10 s, total 30 s (as on FerretDB)");
    }

    public override StoreKind Store => StoreKind.Citus;

    public override bool OwnsProcess => false;

    public override string Description => _description;

    /// <summary>
    /// Every call crosses the coordinator and a worker, and here both share 2 busy cores with the service and the
    /// client: at the default 2 s attempt, cold creates timed out and opened the circuit (a 503 and a retry that adds
    /// load), as on FerretDB. The same longer attempt as FerretDB's; the report lists it with the store's settings.
    /// </summary>
    public override IReadOnlyDictionary<string, string> EngineSettings { get; } = new Dictionary<string, string>
    {
        ["Resilience:AttemptTimeoutSeconds"] = "10",
        ["Resilience:TotalTimeoutSeconds"] = "30",
    };

    /// <summary>
    /// The row's database with the variant's schema already distributed (as a deployment's migration step would leave
    /// it): distributing the tables takes seconds on a busy machine, and the service would start into 503s meanwhile.
    /// </summary>
    public override async Task<string> FreshDatabaseAsync(string name, Variant variant, CancellationToken cancellationToken)
    {
        var connectionString = await FreshDatabaseAsync(name, cancellationToken).ConfigureAwait(false);
        await using (await StoreClient.OpenAsync(variant, connectionString, cancellationToken, EngineSettings).ConfigureAwait(false))
        {
            // Opening the store creates and distributes the schema.
        }

        return connectionString;
    }

    public override async Task<string> FreshDatabaseAsync(string name, CancellationToken cancellationToken)
    {
        // The previous row's databases are audited by now; the background jobs of this one need their worker processes.
        await _databases.DropCreatedAsync().ConfigureAwait(false);
        var connectionString = await _databases.CreateDatabaseAsync(name, cancellationToken).ConfigureAwait(false);

        // The service's pool must cover the copies, as on PostgreSQL (the engine allows 300 connections per node).
        return new NpgsqlConnectionStringBuilder(connectionString) { Pooling = true, MaxPoolSize = 200 }.ConnectionString;
    }

    /// <summary>
    /// As on PostgreSQL: the row's database analyzed (Citus passes ANALYZE on to the shards), then a CHECKPOINT on the
    /// coordinator and every worker.
    /// </summary>
    public override async Task SettleAsync(string connectionString, CancellationToken cancellationToken)
    {
        await PostgresTarget.AnalyzeAsync(connectionString, cancellationToken).ConfigureAwait(false);
        await using var connection = new NpgsqlConnection(AdminConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        await using var command = new NpgsqlCommand("CHECKPOINT; SELECT run_command_on_workers('CHECKPOINT')", connection) { CommandTimeout = 300 };
        await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }

    private readonly List<IAsyncDisposable> _stopAfterwards = [];

    /// <summary>A worker that joined during a row: it holds shards of that row's database until the audit has read them.</summary>
    public void StopAfterwards(IAsyncDisposable worker) => _stopAfterwards.Add(worker);

    public override async ValueTask DisposeAsync()
    {
        await _databases.DisposeAsync().ConfigureAwait(false);
        foreach (var worker in _stopAfterwards)
        {
            await worker.DisposeAsync().ConfigureAwait(false);
        }

        await base.DisposeAsync().ConfigureAwait(false);
    }
}
