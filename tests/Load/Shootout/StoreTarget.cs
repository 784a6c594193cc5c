using Npgsql;
using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>
/// Where a store's data lives during the shoot-out, and how to reset it: a fresh database (or file)
/// per run, so no run sees another's rows or warm caches of its tables.
/// </summary>
public abstract class StoreTarget : IAsyncDisposable
{
    public abstract StoreKind Store { get; }

    /// <summary>True when the harness owns the database process and can kill it (the crash variant).</summary>
    public abstract bool OwnsProcess { get; }

    public abstract string Description { get; }

    /// <summary>A connection string to an empty database for one run.</summary>
    public abstract Task<string> FreshDatabaseAsync(string name, CancellationToken cancellationToken);

    /// <summary>The same for <paramref name="variant"/>, on the server that has the setting its <see cref="Variant.Server"/> names.</summary>
    public virtual Task<string> FreshDatabaseAsync(string name, Variant variant, CancellationToken cancellationToken) =>
        FreshDatabaseAsync(name, cancellationToken);

    /// <summary>
    /// The same for a crash run: a target whose shared server must never be killed (SQL Server, MongoDB) puts crash
    /// runs on the engine the harness owns instead.
    /// </summary>
    public virtual Task<string> FreshDatabaseAsync(string name, Variant variant, bool crash, CancellationToken cancellationToken) =>
        FreshDatabaseAsync(name, variant, cancellationToken);

    /// <summary>Service configuration the engine behind this target needs (its own timeouts), applied before the variant's.</summary>
    public virtual IReadOnlyDictionary<string, string> EngineSettings => new Dictionary<string, string>();

    /// <summary>What a reader must know about the engine behind this target (added to the report's notes).</summary>
    public virtual IEnumerable<string> Notes => [];

    /// <summary>kill -9 of the database under a crash run, and its restart; null when the target has no such process of its own.</summary>
    public virtual Task<string>? CrashAndRestartAsync(int workflowsDone) => null;

    public virtual ValueTask DisposeAsync() => ValueTask.CompletedTask;

    /// <summary>
    /// Brings the store to the same state before every measured window (after the warm-up), on the database at
    /// <paramref name="connectionString"/>. PostgreSQL analyzes that database, as autovacuum would have done long
    /// since in production (a fresh database has no statistics, and the planner then plans otherwise), and runs a
    /// CHECKPOINT, so no run inherits the checkpoint that the previous run's WAL set off. Without the checkpoint the
    /// row measured second in a pair (the baseline, right after its twin and the raw run) met its I/O and CPU.
    /// </summary>
    public virtual Task SettleAsync(string connectionString, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>Starts counting the statements of the database at <paramref name="connectionString"/> afresh, where this target reports them.</summary>
    public virtual Task BeginStatementsAsync(string connectionString, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>
    /// The statements of the database at <paramref name="connectionString"/> since <see cref="BeginStatementsAsync"/>, per
    /// workflow (<see cref="DatabaseStatements"/>); null where this target does not report them.
    /// </summary>
    public virtual Task<List<StatementCost>?> StatementsAsync(string connectionString, long workflows, CancellationToken cancellationToken) =>
        Task.FromResult<List<StatementCost>?>(null);

    /// <summary>
    /// The database server's CPU time so far, every process of it (<see cref="ProcessCpu.OfTree"/>), when the harness owns
    /// the server on this machine; null otherwise (SQLite runs inside the service, an external server is elsewhere).
    /// </summary>
    public virtual TimeSpan? DatabaseCpuTime => null;

    public static async Task<StoreTarget> OpenAsync(StoreKind store, ShootoutOptions options)
    {
        switch (store)
        {
            case StoreKind.Sqlite:
                return new SqliteTarget(Path.Combine(options.OutputDirectory, "data"));
            case StoreKind.PostgreSql when options.PostgresConnectionString is { } given:
                return new PostgresTarget(given, null, options.PgStatements);
            case StoreKind.PostgreSql:
                // Server defaults stay durable (fsync on); variants set their session settings through the store.
                // A larger max_wal_size keeps checkpoints out of a 1,000-workflow run.
                var settings = new Dictionary<string, string> { ["shared_buffers"] = "256MB", ["max_wal_size"] = "'2GB'" };
                if (options.PgStatements)
                {
                    settings["shared_preload_libraries"] = "'pg_stat_statements'";
                }

                var cluster = await ThrowawayPostgres.StartLocalAsync(settings).ConfigureAwait(false);
                return new PostgresTarget(cluster.AdminConnectionString, cluster, options.PgStatements);
            case StoreKind.SqlServer when options.SqlServerConnectionString is { } sqlServer:
                return await SqlServerTarget.OpenAsync(sqlServer, options).ConfigureAwait(false);
            case StoreKind.MongoDb when options.MongoConnectionString is { } mongo:
                return await MongoTarget.OpenAsync(mongo, options).ConfigureAwait(false);
            case StoreKind.Citus when options.CitusConnectionString is { } citus:
                return await CitusTarget.OpenAsync(citus).ConfigureAwait(false);
            case StoreKind.Citus:
                throw new InvalidOperationException("Citus needs a coordinator (--citus \"<conn>\": the last line of ../shared/engines/citus/start.sh DIR).");
            case StoreKind.MongoDb:
                throw new InvalidOperationException("MongoDB needs a server (--mongodb \"mongodb://127.0.0.1:27017/?directConnection=true\"; docker compose up -d --wait mongo).");
            default:
                throw new InvalidOperationException($"{store} needs a connection string (--sqlserver \"<conn>\").");
        }
    }
}

/// <summary>SQLite: a fresh file per run; the database lives inside the service process.</summary>
public sealed class SqliteTarget(string directory) : StoreTarget
{
    public override StoreKind Store => StoreKind.Sqlite;

    public override bool OwnsProcess => true;

    public override string Description => $"SQLite files under {directory} (WAL mode)";

    public override Task<string> FreshDatabaseAsync(string name, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(directory);
        var file = Path.GetFullPath(Path.Combine(directory, $"{name}.db"));
        foreach (var suffix in new[] { "", "-wal", "-shm", "-journal" })
        {
            File.Delete(file + suffix);
        }

        return Task.FromResult($"Data Source={file}");
    }
}

/// <summary>PostgreSQL: a database per run on the owned throwaway cluster, or on the given server.</summary>
/// <param name="statements">Report each row's statements (--pg-statements): the server must load pg_stat_statements.</param>
public sealed class PostgresTarget(string adminConnectionString, ThrowawayPostgres? cluster, bool statements = false) : StoreTarget
{
    public override StoreKind Store => StoreKind.PostgreSql;

    public ThrowawayPostgres? Cluster => cluster;

    /// <summary>pg_ctl, pgbench and postgres live here (null when PostgreSQL is not installed).</summary>
    public static string? BinDirectory => ThrowawayPostgres.FindBinDirectory();

    public override bool OwnsProcess => cluster is not null;

    public override TimeSpan? DatabaseCpuTime => cluster?.ServerPid is { } postmaster ? ProcessCpu.OfTree(postmaster) : null;

    public override string Description => cluster is null
        ? $"the given PostgreSQL server ({new NpgsqlConnectionStringBuilder(adminConnectionString).Host})"
        : $"a {cluster.Description} (fsync on, server defaults otherwise; session settings per variant)";

    /// <summary>kill -9 on the postmaster and every backend: a database crash; the restart runs crash recovery.</summary>
    /// <returns>How long the kill (until every process is gone) and the restart (crash recovery) took.</returns>
    public async Task<(TimeSpan Kill, TimeSpan Restart)> CrashAndRestartAsync(TimeSpan downtime)
    {
        var server = cluster ?? throw new InvalidOperationException("Only a cluster the harness owns can be crashed.");
        var clock = System.Diagnostics.Stopwatch.StartNew();
        await server.KillAsync().ConfigureAwait(false);
        var kill = clock.Elapsed;
        await Task.Delay(downtime).ConfigureAwait(false);
        clock.Restart();
        await server.RestartAsync().ConfigureAwait(false);
        return (kill, clock.Elapsed);
    }

    public static async Task<string> VersionAsync()
    {
        if (BinDirectory is not { } bin)
        {
            return "not installed";
        }

        var result = await Shell.RunAsync(Path.Combine(bin, "postgres"), ["--version"], TimeSpan.FromSeconds(30)).ConfigureAwait(false);
        return result.Output.Trim();
    }

    public string AdminConnectionString => adminConnectionString;

    public override async Task<string> FreshDatabaseAsync(string name, CancellationToken cancellationToken)
    {
        var database = "load_" + new string(name.Where(char.IsLetterOrDigit).ToArray()).ToLowerInvariant();
        await using (var connection = await OpenAdminAsync(cancellationToken).ConfigureAwait(false))
        {
            foreach (var sql in new[] { $"DROP DATABASE IF EXISTS \"{database}\" WITH (FORCE)", $"CREATE DATABASE \"{database}\"" })
            {
                await using var command = new NpgsqlCommand(sql, connection);
                await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
            }
        }

        // The service's pool must cover the copies; Npgsql's default maximum is 100.
        return new NpgsqlConnectionStringBuilder(adminConnectionString) { Database = database, Pooling = true, MaxPoolSize = 200 }.ConnectionString;
    }

    public override async Task SettleAsync(string connectionString, CancellationToken cancellationToken)
    {
        await AnalyzeAsync(connectionString, cancellationToken).ConfigureAwait(false);
        if (!_mayCheckpoint)
        {
            return;
        }

        await using var connection = await OpenAdminAsync(cancellationToken).ConfigureAwait(false);
        await using var command = new NpgsqlCommand("CHECKPOINT", connection) { CommandTimeout = 300 };
        try
        {
            await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (PostgresException denied) when (denied.SqlState == PostgresErrorCodes.InsufficientPrivilege)
        {
            // A given server's role may lack pg_checkpoint (PostgreSQL 15+) or superuser: measure without it, and say so once.
            _mayCheckpoint = false;
            Console.WriteLine($"   no CHECKPOINT before the measured windows: {denied.MessageText}");
        }
    }

    private bool _mayCheckpoint = true;

    public override async Task BeginStatementsAsync(string connectionString, CancellationToken cancellationToken)
    {
        if (statements)
        {
            await using var connection = await OpenAdminAsync(cancellationToken).ConfigureAwait(false);
            await DatabaseStatements.ResetAsync(connection, DatabaseOf(connectionString), cancellationToken).ConfigureAwait(false);
        }
    }

    public override async Task<List<StatementCost>?> StatementsAsync(string connectionString, long workflows, CancellationToken cancellationToken)
    {
        if (!statements)
        {
            return null;
        }

        await using var connection = await OpenAdminAsync(cancellationToken).ConfigureAwait(false);
        return await DatabaseStatements.ReadAsync(connection, DatabaseOf(connectionString), workflows, cancellationToken).ConfigureAwait(false);
    }

    private static string DatabaseOf(string connectionString) =>
        new NpgsqlConnectionStringBuilder(connectionString).Database ?? throw new InvalidOperationException("The row's connection string names no database.");

    /// <summary>A connection of its own to the admin database (no pool: the harness opens one now and then).</summary>
    private async Task<NpgsqlConnection> OpenAdminAsync(CancellationToken cancellationToken)
    {
        var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(adminConnectionString) { Pooling = false }.ConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        return connection;
    }

    /// <summary>ANALYZE of the database the row measures (its owner may, whatever else the role may not).</summary>
    public static async Task AnalyzeAsync(string connectionString, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        await using var command = new NpgsqlCommand("ANALYZE", connection) { CommandTimeout = 300 };
        await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }

    public override async ValueTask DisposeAsync()
    {
        if (cluster is not null)
        {
            await cluster.DisposeAsync().ConfigureAwait(false);
        }

        await base.DisposeAsync().ConfigureAwait(false);
    }
}
