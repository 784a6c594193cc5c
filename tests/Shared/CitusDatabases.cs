using Npgsql;

namespace OrderService.Testing;

/// <summary>
/// Fresh distributed databases on a running Citus cluster (../shared/engines/citus), named by ORDERS_TEST_CITUS: the
/// connection string start.sh prints (the coordinator's database <c>orders</c>, role <c>orders</c>). Citus keeps its
/// metadata per database, so a new database is made Citus the way the engine's README says: created on every node
/// (Citus propagates CREATE DATABASE), the extension created in it on every node, then the coordinator and the
/// workers registered in it. That takes the superuser <c>postgres</c> of the same cluster (trust auth there). The
/// service itself connects as the string's role.
/// </summary>
public sealed class CitusDatabases : IAsyncDisposable
{
    public const string ServerVariable = "ORDERS_TEST_CITUS";

    private const string SuperUser = "postgres";

    private readonly string _connectionString;
    private readonly List<string> _created = [];
    private readonly Lock _gate = new();

    // Registering nodes in two new databases at once races on the workers' roles ("tuple concurrently updated" from
    // worker_create_or_alter_role, then "failure on connection marked as essential"): one set-up at a time.
    private static readonly SemaphoreSlim OneSetUpAtATime = new(1, 1);

    private CitusDatabases(string connectionString) => _connectionString = connectionString;

    /// <summary>The cluster named by ORDERS_TEST_CITUS, or null when it is not set.</summary>
    public static CitusDatabases? FromEnvironment() =>
        Environment.GetEnvironmentVariable(ServerVariable) is { Length: > 0 } connection ? new CitusDatabases(connection) : null;

    /// <summary>The cluster whose coordinator <paramref name="connectionString"/> names (the load harness's --citus).</summary>
    public static CitusDatabases For(string connectionString) => new(connectionString);

    public static string UnavailableReason => $"{ServerVariable} is not set: start ../shared/engines/citus/start.sh and export its connection string (.ci/run does).";

    /// <summary>The cluster's own database <c>orders</c> as the superuser (its worker list, and CREATE DATABASE).</summary>
    public string AdminConnectionString => As(_connectionString, database: null, SuperUser);

    /// <summary>Creates a distributed database of its own and returns the service's connection string to it.</summary>
    public async Task<string> CreateDatabaseAsync(string prefix, CancellationToken cancellationToken)
    {
        await OneSetUpAtATime.WaitAsync(cancellationToken);
        try
        {
            return await CreateDistributedDatabaseAsync(prefix, cancellationToken);
        }
        finally
        {
            OneSetUpAtATime.Release();
        }
    }

    private async Task<string> CreateDistributedDatabaseAsync(string prefix, CancellationToken cancellationToken)
    {
        var readable = new string(prefix.ToLowerInvariant().Select(c => char.IsAsciiLetterOrDigit(c) ? c : '_').ToArray());
        var name = $"{readable[..Math.Min(readable.Length, 30)]}_{Guid.NewGuid():N}";
        var owner = new NpgsqlConnectionStringBuilder(_connectionString).Username;
        List<(string Host, int Port)> workers = [];
        await using (var admin = await OpenAsync(AdminConnectionString + ";Options=-c citus.enable_create_database_propagation=on", cancellationToken))
        {
            // CREATE DATABASE waits for a checkpoint on every node: slow on a busy machine.
            await using (var create = new NpgsqlCommand($"CREATE DATABASE \"{name}\" OWNER \"{owner}\"", admin) { CommandTimeout = 180 })
            {
                await create.ExecuteNonQueryAsync(cancellationToken);
            }

            lock (_gate)
            {
                _created.Add(name);
            }

            await using var list = new NpgsqlCommand("SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' ORDER BY nodeid", admin);
            await using var reader = await list.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                workers.Add((reader.GetString(0), reader.GetInt32(1)));
            }
        }

        foreach (var (host, port) in workers)
        {
            await ExecuteAsync(new NpgsqlConnectionStringBuilder(As(_connectionString, name, SuperUser)) { Host = host, Port = port }.ConnectionString,
                "CREATE EXTENSION citus", cancellationToken);
        }

        var coordinator = new NpgsqlConnectionStringBuilder(_connectionString);
        var register = $"CREATE EXTENSION citus; SELECT citus_set_coordinator_host('{coordinator.Host}', {coordinator.Port});" +
            string.Concat(workers.Select(w => $" SELECT citus_add_node('{w.Host}', {w.Port});"));
        await ExecuteAsync(As(_connectionString, name, SuperUser), register, cancellationToken);
        return new NpgsqlConnectionStringBuilder(_connectionString) { Database = name }.ConnectionString;
    }

    public async ValueTask DisposeAsync() => await DropCreatedAsync();

    /// <summary>
    /// Drops every database made so far. Each Citus database runs a maintenance daemon on every node, and Citus's
    /// background jobs (the rebalancer's shard moves) need free worker processes there too (max_worker_processes is 8):
    /// a harness that makes a database per run drops the earlier ones first.
    /// </summary>
    public async Task DropCreatedAsync()
    {
        string[] names;
        lock (_gate)
        {
            names = [.. _created];
            _created.Clear();
        }

        try
        {
            await using var admin = await OpenAsync(AdminConnectionString + ";Options=-c citus.enable_create_database_propagation=on", CancellationToken.None);
            foreach (var name in names)
            {
                await using var drop = new NpgsqlCommand($"DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)", admin) { CommandTimeout = 180 };
                await drop.ExecuteNonQueryAsync();
            }
        }
        catch (NpgsqlException exception)
        {
            // Best effort: a cluster that went away keeps a few test databases, which is harmless.
            Console.Error.WriteLine($"Citus test databases not dropped ({string.Join(", ", names)}): {exception.Message}");
        }
    }

    private static string As(string connectionString, string? database, string username)
    {
        var builder = new NpgsqlConnectionStringBuilder(connectionString) { Username = username, Password = null, Pooling = false };
        if (database is not null)
        {
            builder.Database = database;
        }

        return builder.ConnectionString;
    }

    private static async Task<NpgsqlConnection> OpenAsync(string connectionString, CancellationToken cancellationToken)
    {
        var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        return connection;
    }

    private static async Task ExecuteAsync(string connectionString, string sql, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(connectionString, cancellationToken);
        await using var command = new NpgsqlCommand(sql, connection) { CommandTimeout = 180 };
        await command.ExecuteNonQueryAsync(cancellationToken);
    }
}
