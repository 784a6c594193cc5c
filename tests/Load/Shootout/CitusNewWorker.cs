using System.Globalization;
using Npgsql;

namespace OrderService.Load.Shootout;

/// <summary>
/// A Citus worker that joins a running cluster (--citus-scale-out PORT): a PostgreSQL server of the engine's own
/// binaries (DIR/pgroot of ../shared/engines/citus/start.sh DIR), set up as start.sh sets up its workers, in
/// DIR/data/scale-out-PORT. It joins one database (Citus keeps its node list per database): the database and the
/// extension are created on it, then the coordinator adds it with <c>citus_add_node</c>. Stopped and deleted on dispose.
/// </summary>
public sealed class CitusNewWorker : IAsyncDisposable
{
    private readonly string _bin;
    private readonly string _data;
    private readonly Dictionary<string, string> _environment;

    private CitusNewWorker(string engineDirectory, int port)
    {
        var root = Path.Combine(engineDirectory, "pgroot", "usr", "lib", "postgresql", "15");
        _bin = Path.Combine(root, "bin");
        _data = Path.Combine(engineDirectory, "data", $"scale-out-{port}");
        _environment = new() { ["LD_LIBRARY_PATH"] = Path.Combine(root, "lib"), ["LANG"] = "C.UTF-8", ["TZ"] = "Etc/UTC" };
        Port = port;
    }

    public int Port { get; }

    /// <summary>initdb and start, with start.sh's worker settings and the durability of the engine's first worker.</summary>
    public static async Task<CitusNewWorker> StartAsync(string engineDirectory, int port)
    {
        var worker = new CitusNewWorker(engineDirectory, port);
        if (!File.Exists(Path.Combine(worker._bin, "postgres")))
        {
            throw new InvalidOperationException($"--citus-engine {engineDirectory} has no pgroot/usr/lib/postgresql/15/bin/postgres: name the DIR that ../shared/engines/citus/start.sh DIR set up.");
        }

        await worker.InitAndStartAsync(engineDirectory).ConfigureAwait(false);
        return worker;
    }

    private async Task InitAndStartAsync(string engineDirectory)
    {
        if (Directory.Exists(_data))
        {
            Directory.Delete(_data, recursive: true);
        }

        Directory.CreateDirectory(_data);
        (await Shell.RunAsync("chown", ["postgres:", _data], TimeSpan.FromMinutes(1)).ConfigureAwait(false)).EnsureSuccess("chown of the new Citus worker's folder");
        (await ToolAsync("initdb", "-D", _data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--lc-messages=C")
            .ConfigureAwait(false)).EnsureSuccess("initdb of the new Citus worker");
        var durability = Path.Combine(engineDirectory, "data", "worker1", "durability.conf");
        await File.AppendAllTextAsync(Path.Combine(_data, "postgresql.conf"), string.Create(CultureInfo.InvariantCulture, $"""

            # --- a worker that joins under load (the shoot-out's --citus-scale-out), as start.sh sets up a worker ---
            listen_addresses = '127.0.0.1'
            port = {Port}
            unix_socket_directories = ''
            max_connections = 300
            shared_preload_libraries = 'citus'
            citus.node_conninfo = 'sslmode=disable'
            citus.local_hostname = '127.0.0.1'
            wal_level = logical
            jit = off
            lc_messages = 'C'
            include_if_exists = '{durability}'

            """)).ConfigureAwait(false);
        (await ToolAsync("pg_ctl", "-D", _data, "-l", Path.Combine(_data, "server.log"), "-w", "-t", "120", "start")
            .ConfigureAwait(false)).EnsureSuccess("start of the new Citus worker");
    }

    /// <summary>Makes <paramref name="database"/> Citus on this worker (owned by the service's role), and adds the worker to it.</summary>
    public async Task JoinAsync(string adminConnectionString, string database, CancellationToken cancellationToken)
    {
        var owner = "orders";
        var self = new NpgsqlConnectionStringBuilder(adminConnectionString) { Host = "127.0.0.1", Port = Port, Database = "postgres", Pooling = false };
        await ExecuteAsync(self.ConnectionString,
            $"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{owner}') THEN CREATE ROLE {owner} LOGIN CREATEDB; END IF; END $$",
            cancellationToken).ConfigureAwait(false);
        await ExecuteAsync(self.ConnectionString, $"CREATE DATABASE \"{database}\" OWNER {owner}", cancellationToken).ConfigureAwait(false);
        self.Database = database;
        await ExecuteAsync(self.ConnectionString, "CREATE EXTENSION citus", cancellationToken).ConfigureAwait(false);
        var coordinator = new NpgsqlConnectionStringBuilder(adminConnectionString) { Database = database, Pooling = false };
        await ExecuteAsync(coordinator.ConnectionString, $"SELECT citus_add_node('127.0.0.1', {Port})", cancellationToken).ConfigureAwait(false);
    }

    public async ValueTask DisposeAsync()
    {
        await ToolAsync("pg_ctl", "-D", _data, "-m", "immediate", "-w", "stop").ConfigureAwait(false);
        Directory.Delete(_data, recursive: true);
    }

    /// <summary>One of the engine's programs, as user postgres, with the engine's libraries.</summary>
    private Task<Shell.Result> ToolAsync(string tool, params string[] arguments) =>
        Shell.RunAsPostgresAsync("env", [.. _environment.Select(p => $"{p.Key}={p.Value}"), Path.Combine(_bin, tool), .. arguments], TimeSpan.FromMinutes(3));

    private static async Task ExecuteAsync(string connectionString, string sql, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        await using var command = new NpgsqlCommand(sql, connection) { CommandTimeout = 300 };
        await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }
}
