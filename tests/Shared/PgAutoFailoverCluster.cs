using System.Collections.Concurrent;
using System.Globalization;
using Npgsql;

namespace OrderService.Testing;

/// <summary>
/// pg_auto_failover on this machine, for failover tests: a monitor, a primary and a secondary, each a
/// <c>pg_autoctl run</c> (keeper and PostgreSQL) on its own loopback port and folder, with trust auth and no TLS, run
/// as user postgres when we are root. Synchronous by default (replication quorum: a commit waits for the secondary);
/// asynchronous on request. The monitor, not the test, decides and promotes; the test only kills or asks for a
/// switchover. Dispose kills every process it started, by pid, and deletes the folder.
/// <para>
/// The monitor's health checks are tightened (the defaults detect a dead primary in about 20 s and then wait 30 s for
/// it to demote itself): see <see cref="MonitorSettings"/>. That wait protects against two primaries when the old one
/// is only cut off; a test that kills it cannot have two.
/// </para>
/// </summary>
public sealed partial class PgAutoFailoverCluster : IAsyncDisposable
{
    public const string Database = "orders";

    /// <summary>The monitor's settings for a test: a dead node is noticed in about 4 s, and promotion waits 4 s more.</summary>
    public static readonly IReadOnlyDictionary<string, int> MonitorSettings = new Dictionary<string, int>(StringComparer.Ordinal)
    {
        ["pgautofailover.health_check_period"] = 1000,
        ["pgautofailover.health_check_timeout"] = 1000,
        ["pgautofailover.health_check_max_retries"] = 1,
        ["pgautofailover.health_check_retry_delay"] = 500,
        ["pgautofailover.node_considered_unhealthy_timeout"] = 4000,
        ["pgautofailover.primary_demote_timeout"] = 4000,
    };

    private static readonly ConcurrentDictionary<PgAutoFailoverCluster, byte> Running = new();
    private readonly string _root;
    private readonly AutoctlTools _tools;
    private readonly ConcurrentDictionary<string, KeeperProcess> _keepers = new(StringComparer.Ordinal);
    private int _disposed;

    static PgAutoFailoverCluster() =>
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            foreach (var cluster in Running.Keys)
            {
                cluster.KillAllAndDelete();
            }
        };

    private PgAutoFailoverCluster(string root, AutoctlTools tools, int monitorPort, IReadOnlyList<FailoverNode> nodes)
    {
        _root = root;
        _tools = tools;
        MonitorPort = monitorPort;
        Nodes = nodes;
    }

    public int MonitorPort { get; }

    /// <summary>The data nodes, in the order they were created (the first starts as the primary).</summary>
    public IReadOnlyList<FailoverNode> Nodes { get; }

    /// <summary>Why pg_auto_failover cannot run here (with what to do), or null when it can.</summary>
    public static string? UnavailableReason() => AutoctlTools.Find(out _);

    /// <summary>
    /// The connection string a service gets: every node, and only the primary will do. Host Recheck Seconds is short
    /// so that the driver looks again soon at a node it saw down or standing by; the default 10 s adds up to that much
    /// to a failover.
    /// </summary>
    public string ServiceConnectionString(int hostRecheckSeconds = 1) =>
        $"Host={string.Join(',', Nodes.Select(n => $"127.0.0.1:{n.Port}"))};Username=postgres;Database={Database};" +
        $"Target Session Attributes=primary;Host Recheck Seconds={hostRecheckSeconds};Timeout=3";

    /// <summary>A direct connection string to one node.</summary>
    public static string NodeConnectionString(FailoverNode node, string database = Database) =>
        $"Host=127.0.0.1;Port={node.Port};Username=postgres;Database={database};Timeout=3;Pooling=false";

    public static async Task<PgAutoFailoverCluster> StartAsync(bool synchronous = true, CancellationToken cancellationToken = default)
    {
        if (AutoctlTools.Find(out var tools) is { } reason)
        {
            throw new InvalidOperationException(reason);
        }

        var root = Path.Combine(Path.GetTempPath(), $"orders-paf-{Guid.NewGuid():N}"[..23]);
        Directory.CreateDirectory(root);
        var nodes = new[] { new FailoverNode("node1", FreePort.Loopback()), new FailoverNode("node2", FreePort.Loopback()) };
        var cluster = new PgAutoFailoverCluster(root, tools!, FreePort.Loopback(), nodes);
        Running.TryAdd(cluster, 0);
        try
        {
            await cluster.CreateAsync(synchronous, cancellationToken);
            return cluster;
        }
        catch
        {
            await cluster.DisposeAsync();
            throw;
        }
    }

    /// <summary>Each node's state as the monitor reports it (reported state, goal state).</summary>
    public async Task<IReadOnlyDictionary<string, (string Reported, string Goal)>> StatesAsync(CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(MonitorConnectionString);
        await connection.OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand("SELECT nodename, reportedstate::text, goalstate::text FROM pgautofailover.node", connection);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        var states = new Dictionary<string, (string, string)>(StringComparer.Ordinal);
        while (await reader.ReadAsync(cancellationToken))
        {
            states[reader.GetString(0)] = (reader.GetString(1), reader.GetString(2));
        }

        return states;
    }

    /// <summary>Waits (bounded) until one node is primary and the other secondary, reported and goal; returns the primary.</summary>
    public async Task<FailoverNode> WaitForPrimaryAndSecondaryAsync(TimeSpan bound, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + bound;
        IReadOnlyDictionary<string, (string Reported, string Goal)> states = new Dictionary<string, (string, string)>();
        while (DateTime.UtcNow < deadline)
        {
            try
            {
                states = await StatesAsync(cancellationToken);
                var primary = Nodes.Where(n => states.TryGetValue(n.Name, out var s) && s is ("primary", "primary")).ToList();
                var secondary = Nodes.Where(n => states.TryGetValue(n.Name, out var s) && s is ("secondary", "secondary")).ToList();
                if (primary.Count == 1 && secondary.Count == 1)
                {
                    return primary[0];
                }
            }
            catch (NpgsqlException)
            {
                // The monitor is starting.
            }

            await Task.Delay(250, cancellationToken);
        }

        throw new TimeoutException($"pg_auto_failover did not reach primary + secondary within {bound.TotalSeconds:0} s: {Describe(states)}. Logs under {_root}.");
    }

    /// <summary>
    /// Waits (bounded) until <paramref name="node"/> is a writable primary by its own account (promoted, not in
    /// recovery), as the monitor leaves it after a failover (wait_primary or primary).
    /// </summary>
    public async Task WaitUntilWritableAsync(FailoverNode node, TimeSpan bound, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + bound;
        while (DateTime.UtcNow < deadline)
        {
            var states = await StatesAsync(cancellationToken);
            if (states.TryGetValue(node.Name, out var state) && state.Reported is "wait_primary" or "primary")
            {
                return;
            }

            await Task.Delay(250, cancellationToken);
        }

        throw new TimeoutException($"{node.Name} did not become primary within {bound.TotalSeconds:0} s. Logs under {_root}.");
    }

    /// <summary>kill -9 of a node's keeper and of its PostgreSQL (postmaster and backends): a machine that died.</summary>
    public void Kill(FailoverNode node)
    {
        if (_keepers.TryRemove(node.Name, out var keeper))
        {
            keeper.KillTree();
        }
    }

    /// <summary>Starts a killed node's keeper again: it rejoins (rewinding if it must) and becomes the secondary.</summary>
    public Task RestartAsync(FailoverNode node, CancellationToken cancellationToken)
    {
        if (!_keepers.ContainsKey(node.Name))
        {
            _keepers[node.Name] = _tools.StartKeeper(NodeDirectory(node.Name), Path.Combine(_root, $"{node.Name}.log"));
        }

        return Task.CompletedTask;
    }

    /// <summary><c>pg_autoctl perform switchover</c>: the monitor demotes the primary and promotes the secondary.</summary>
    public Task SwitchoverAsync(CancellationToken cancellationToken) =>
        _tools.RunAsync(["perform", "switchover", "--pgdata", NodeDirectory("monitor")], TimeSpan.FromSeconds(60), cancellationToken);

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 1)
        {
            return;
        }

        Running.TryRemove(this, out _);
        await Task.Run(KillAllAndDelete);
    }

    private static string Describe(IReadOnlyDictionary<string, (string Reported, string Goal)> states) =>
        states.Count == 0 ? "no node registered" : string.Join(", ", states.Select(s => $"{s.Key} {s.Value.Reported}/{s.Value.Goal}"));

    private string MonitorConnectionString =>
        $"Host=127.0.0.1;Port={MonitorPort};Username=postgres;Database=pg_auto_failover;Timeout=3;Pooling=false";

    private string NodeDirectory(string name) => Path.Combine(_root, name);

    private async Task CreateAsync(bool synchronous, CancellationToken cancellationToken)
    {
        await _tools.PrepareAsync(_root, cancellationToken);
        var createTimeout = TimeSpan.FromSeconds(90);
        var monitor = NodeDirectory("monitor");
        await _tools.RunAsync(["create", "monitor", "--pgdata", monitor, "--pgport", Port(MonitorPort), "--hostname", "127.0.0.1",
            "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl", "--pgctl", _tools.PgCtl], createTimeout, cancellationToken);
        _keepers["monitor"] = _tools.StartKeeper(monitor, Path.Combine(_root, "monitor.log"));
        await TuneMonitorAsync(cancellationToken);

        var monitorUri = $"postgres://autoctl_node@127.0.0.1:{Port(MonitorPort)}/pg_auto_failover?sslmode=disable";
        foreach (var node in Nodes)
        {
            // The first node becomes the primary; the second is cloned from it, so the primary's keeper must run first.
            // replication-quorum false on the secondary makes the primary commit without waiting for it (asynchronous).
            var quorum = synchronous || node == Nodes[0] ? "true" : "false";
            await _tools.RunAsync(["create", "postgres", "--pgdata", NodeDirectory(node.Name), "--pgport", Port(node.Port),
                "--hostname", "127.0.0.1", "--listen", "127.0.0.1", "--name", node.Name, "--dbname", Database, "--auth", "trust",
                "--no-ssl", "--monitor", monitorUri, "--pgctl", _tools.PgCtl, "--replication-quorum", quorum], createTimeout, cancellationToken);
            _keepers[node.Name] = _tools.StartKeeper(NodeDirectory(node.Name), Path.Combine(_root, $"{node.Name}.log"));
        }

        await WaitForPrimaryAndSecondaryAsync(TimeSpan.FromSeconds(90), cancellationToken);
    }

    private async Task TuneMonitorAsync(CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (true)
        {
            try
            {
                await using var connection = new NpgsqlConnection(MonitorConnectionString);
                await connection.OpenAsync(cancellationToken);
                foreach (var (name, value) in MonitorSettings)
                {
                    await using var set = new NpgsqlCommand($"ALTER SYSTEM SET {name} = {value.ToString(CultureInfo.InvariantCulture)}", connection);
                    await set.ExecuteNonQueryAsync(cancellationToken);
                }

                await using var reload = new NpgsqlCommand("SELECT pg_reload_conf()", connection);
                await reload.ExecuteScalarAsync(cancellationToken);
                return;
            }
            catch (NpgsqlException) when (DateTime.UtcNow < deadline)
            {
                await Task.Delay(250, cancellationToken); // the monitor's PostgreSQL is starting
            }
        }
    }

    private void KillAllAndDelete()
    {
        foreach (var name in _keepers.Keys)
        {
            if (_keepers.TryRemove(name, out var keeper))
            {
                keeper.KillTree();
            }
        }

        try
        {
            Directory.Delete(_root, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    private static string Port(int port) => port.ToString(CultureInfo.InvariantCulture);
}

/// <summary>One pg_auto_failover data node: its name at the monitor and its PostgreSQL port on 127.0.0.1.</summary>
public sealed record FailoverNode(string Name, int Port);
