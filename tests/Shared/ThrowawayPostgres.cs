using System.Collections.Concurrent;
using Npgsql;

namespace OrderService.Testing;

/// <summary>
/// A PostgreSQL server for tests and the shoot-out. With ORDERS_TEST_POSTGRES set it uses that server
/// (and only creates and drops databases there). Otherwise it initdb's a cluster into a temp directory,
/// starts it on a free loopback port with trust auth, and on dispose stops it and deletes the directory.
/// Stop, kill -9 and restart exist so crash and recovery can be tested on a cluster nobody else uses.
/// </summary>
public sealed class ThrowawayPostgres : IAsyncDisposable
{
    public const string ExternalServerVariable = "ORDERS_TEST_POSTGRES";
    private const string SuperUser = "postgres";

    // Clusters still running when the process exits (a crashed or cancelled run) are stopped here,
    // so no orphan postmaster keeps a port and a temp directory alive.
    private static readonly ConcurrentDictionary<ThrowawayPostgres, byte> Running = new();

    private readonly string? _externalConnectionString;
    private readonly PostgresCluster? _cluster;
    private readonly IAsyncDisposable? _owner;
    private readonly string? _source;
    private readonly ConcurrentBag<string> _createdDatabases = [];
    private int _disposed;

    static ThrowawayPostgres() =>
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            foreach (var server in Running.Keys)
            {
                server._cluster?.StopImmediatelyAndDelete();
            }
        };

    private ThrowawayPostgres(string? externalConnectionString, PostgresCluster? cluster, IAsyncDisposable? owner = null, string? source = null)
    {
        _externalConnectionString = externalConnectionString;
        _cluster = cluster;
        _owner = owner;
        _source = source;
    }

    /// <summary>True when this object owns a local cluster it can stop, kill and restart.</summary>
    public bool IsThrowaway => _cluster is not null;

    /// <summary>Where the server listens (for logs and reports).</summary>
    public string Description => _cluster is { } c
        ? $"throwaway cluster {c.DataDirectory} on 127.0.0.1:{c.Port}"
        : $"{(_owner is null ? "external server" : "server")} from {_source ?? ExternalServerVariable}";

    /// <summary>The postmaster's process id when this object owns a running local cluster (its backends are its children).</summary>
    public int? ServerPid => _cluster?.PostmasterPid;

    /// <summary>A connection string to the server's maintenance database, as the superuser.</summary>
    public string AdminConnectionString => _externalConnectionString ?? _cluster!.ConnectionString("postgres");

    /// <summary>Uses ORDERS_TEST_POSTGRES when set, else starts a throwaway cluster.</summary>
    public static Task<ThrowawayPostgres> StartAsync(CancellationToken cancellationToken = default) =>
        StartAsync(settings: null, cancellationToken);

    /// <param name="settings">Extra postgresql.conf settings for a throwaway cluster (ignored for an external server).</param>
    public static async Task<ThrowawayPostgres> StartAsync(IReadOnlyDictionary<string, string>? settings, CancellationToken cancellationToken = default)
    {
        var external = Environment.GetEnvironmentVariable(ExternalServerVariable);
        if (!string.IsNullOrWhiteSpace(external))
        {
            return new ThrowawayPostgres(external, null);
        }

        return await StartLocalAsync(settings, cancellationToken);
    }

    /// <summary>
    /// A server found elsewhere (a container, a given connection string): databases are created on it as on an
    /// external server. Disposing drops them, then disposes <paramref name="owner"/> (which stops a container).
    /// </summary>
    public static ThrowawayPostgres OnServer(string adminConnectionString, string source, IAsyncDisposable? owner) =>
        new(adminConnectionString, null, owner, source);

    /// <summary>Always a local cluster, even when ORDERS_TEST_POSTGRES is set: for tests that stop or kill the server.</summary>
    public static async Task<ThrowawayPostgres> StartLocalAsync(IReadOnlyDictionary<string, string>? settings = null, CancellationToken cancellationToken = default)
    {
        var cluster = await PostgresCluster.CreateAsync(settings, cancellationToken);
        var server = new ThrowawayPostgres(null, cluster);
        Running.TryAdd(server, 0);
        try
        {
            await cluster.StartAsync(cancellationToken);
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }

        return server;
    }

    /// <summary>
    /// A streaming standby of this local cluster (pg_basebackup -R), started: read-only, it replays what the primary
    /// commits. Dispose it before the primary.
    /// </summary>
    public async Task<ThrowawayPostgres> StartStandbyAsync(CancellationToken cancellationToken = default)
    {
        var standbyCluster = await PostgresCluster.CreateStandbyAsync(RequireCluster(), cancellationToken);
        var standby = new ThrowawayPostgres(null, standbyCluster);
        Running.TryAdd(standby, 0);
        try
        {
            await standbyCluster.StartAsync(cancellationToken);
        }
        catch
        {
            await standby.DisposeAsync();
            throw;
        }

        return standby;
    }

    /// <summary>The loopback port a local cluster listens on.</summary>
    public int Port => RequireCluster().Port;

    /// <summary>The PostgreSQL bin directory (initdb, pg_ctl), or null when none is installed.</summary>
    public static string? FindBinDirectory() => PostgresCluster.FindBinDirectory();

    /// <summary>Creates a fresh, empty database and returns a connection string to it.</summary>
    public async Task<string> CreateDatabaseAsync(string prefix = "orders", CancellationToken cancellationToken = default)
    {
        // PostgreSQL names stop at 63 bytes: a short readable prefix plus a unique suffix.
        var readable = Sanitize(prefix);
        var name = $"{readable[..Math.Min(readable.Length, 30)]}_{Guid.NewGuid():N}";
        await using (var connection = new NpgsqlConnection(AdminConnectionString))
        {
            await connection.OpenAsync(cancellationToken);
            // CREATE DATABASE waits for a checkpoint: under a full test run's load that has taken more than Npgsql's default 30 s.
            await using var command = new NpgsqlCommand($"CREATE DATABASE \"{name}\"", connection) { CommandTimeout = 180 };
            await command.ExecuteNonQueryAsync(cancellationToken);
        }

        _createdDatabases.Add(name);
        return new NpgsqlConnectionStringBuilder(AdminConnectionString) { Database = name }.ConnectionString;
    }

    /// <summary>
    /// A connection string to a database that does not exist yet (a unique name, dropped at dispose if someone
    /// created it), as <paramref name="username"/> when given: for tests of what the service does about it.
    /// </summary>
    public string MissingDatabaseConnectionString(string prefix, string? username = null, string? password = null)
    {
        var readable = Sanitize(prefix);
        var name = $"{readable[..Math.Min(readable.Length, 30)]}_{Guid.NewGuid():N}";
        _createdDatabases.Add(name);
        var builder = new NpgsqlConnectionStringBuilder(AdminConnectionString) { Database = name };
        if (username is not null)
        {
            builder.Username = username;
            builder.Password = password;
        }

        return builder.ConnectionString;
    }

    /// <summary>A connection string to a loopback port where nothing listens: a PostgreSQL that is down.</summary>
    public static string UnreachableConnectionString() =>
        $"Host=127.0.0.1;Port={FreePort.Loopback()};Username={SuperUser};Database=orders;Timeout=3";

    /// <summary>Clean shutdown (pg_ctl stop -m fast).</summary>
    public Task StopAsync(CancellationToken cancellationToken = default) => RequireCluster().StopAsync("fast", cancellationToken);

    /// <summary>A crash: SIGKILL to the postmaster and all its backends. The next start runs crash recovery.</summary>
    public Task KillAsync(CancellationToken cancellationToken = default) => RequireCluster().KillAsync(cancellationToken);

    /// <summary>Starts a stopped or killed cluster again on the same port and data directory.</summary>
    public Task RestartAsync(CancellationToken cancellationToken = default) => RequireCluster().StartAsync(cancellationToken);

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 1)
        {
            return;
        }

        if (_cluster is not null)
        {
            Running.TryRemove(this, out _);
            await Task.Run(_cluster.StopImmediatelyAndDelete);
            return;
        }

        if (_owner is not null)
        {
            await _owner.DisposeAsync();
            return;
        }

        // An external server outlives us: drop only what we created there.
        try
        {
            await using var connection = new NpgsqlConnection(AdminConnectionString);
            await connection.OpenAsync();
            foreach (var name in _createdDatabases)
            {
                await using var command = new NpgsqlCommand($"DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)", connection);
                await command.ExecuteNonQueryAsync();
            }
        }
        catch (NpgsqlException)
        {
            // Best effort: a server that went away keeps a few test databases, which is harmless.
        }
    }

    private PostgresCluster RequireCluster() =>
        _cluster ?? throw new InvalidOperationException(
            $"The server from {ExternalServerVariable} cannot be stopped or killed by tests; use {nameof(StartLocalAsync)}.");

    private static string Sanitize(string prefix)
    {
        var chars = prefix.ToLowerInvariant().Select(c => char.IsAsciiLetterOrDigit(c) ? c : '_').ToArray();
        return new string(chars).Trim('_') is { Length: > 0 } clean ? clean : "db";
    }
}
