using System.Diagnostics;
using Npgsql;

namespace OrderService.Load.Shootout;

/// <summary>
/// A Babelfish or FerretDB engine that the harness may crash: one started with <c>engines/NAME/start.sh DIR</c> on
/// ports of its own (never a shared engine). Both keep their data in a PostgreSQL cluster under DIR, so a database
/// crash is kill -9 of that postmaster and its backends, and the restart is <c>start.sh DIR</c> again (it starts a
/// stopped cluster, which runs crash recovery, and leaves a running FerretDB alone: FerretDB reconnects by itself).
/// The same PostgreSQL carries the server settings that have no client switch: FerretDB's variant 5 group-commit
/// window (commit_delay), and the durability settings the report prints.
/// </summary>
public sealed class OwnedEngine
{
    private readonly string _startScript;
    private readonly string _dataDirectory;
    private readonly Dictionary<string, string> _restartEnvironment;

    private OwnedEngine(string name, string directory, string startScript, string dataDirectory, Dictionary<string, string> restartEnvironment)
    {
        Name = name;
        Directory = directory;
        _startScript = startScript;
        _dataDirectory = dataDirectory;
        _restartEnvironment = restartEnvironment;
        if (!File.Exists(_startScript))
        {
            throw new InvalidOperationException($"{name}: no start script at {_startScript} (--engines names the folder with babelfish/ and ferretdb/).");
        }

        if (!File.Exists(Path.Combine(_dataDirectory, "postmaster.pid")))
        {
            throw new InvalidOperationException($"{name}: no running PostgreSQL in {_dataDirectory}: start it with {startScript} {directory} (ports of its own) first.");
        }
    }

    public string Name { get; }

    public string Directory { get; }

    /// <summary>Babelfish started by <c>start.sh DIR</c>: its cluster is DIR/data; the TDS port is the connection string's.</summary>
    public static OwnedEngine Babelfish(string directory, string engines, int tdsPort)
    {
        var data = Path.Combine(directory, "data");
        return new OwnedEngine("Babelfish", directory, Path.Combine(engines, "babelfish", "start.sh"), data, new Dictionary<string, string>
        {
            ["BABELFISH_TDS_PORT"] = tdsPort.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["BABELFISH_PG_PORT"] = PidFileLine(data, 4),
        });
    }

    /// <summary>FerretDB started by <c>start.sh DIR</c>: its PostgreSQL cluster is DIR/pgdata, its ports are in DIR/run.</summary>
    public static OwnedEngine FerretDb(string directory, string engines)
    {
        var data = Path.Combine(directory, "pgdata");
        return new OwnedEngine("FerretDB", directory, Path.Combine(engines, "ferretdb", "start.sh"), data, new Dictionary<string, string>
        {
            ["FERRETDB_PORT"] = File.ReadAllText(Path.Combine(directory, "run", "ferretdb.port")).Trim(),
            ["FERRETDB_PG_PORT"] = PidFileLine(data, 4),
        });
    }

    /// <summary>The engine's PostgreSQL as its superuser (trust on 127.0.0.1, as start.sh sets it up).</summary>
    public string PostgresConnectionString => new NpgsqlConnectionStringBuilder
    {
        Host = "127.0.0.1",
        Port = int.Parse(PidFileLine(_dataDirectory, 4), System.Globalization.CultureInfo.InvariantCulture),
        Username = "postgres",
        Database = "postgres",
        Pooling = false,
        Timeout = 30,
    }.ConnectionString;

    /// <summary>kill -9 of the postmaster and every backend, a pause, then start.sh DIR (crash recovery).</summary>
    public async Task<(TimeSpan Kill, TimeSpan Restart)> CrashAndRestartAsync(TimeSpan downtime)
    {
        var postmaster = int.Parse(PidFileLine(_dataDirectory, 1), System.Globalization.CultureInfo.InvariantCulture);
        var clock = Stopwatch.StartNew();
        Shell.KillTreeHard(postmaster);

        // start.sh asks pg_ctl status, which counts a zombie postmaster as running (kill -0): restarted before PID 1 has
        // reaped it, start.sh takes its "already running" path, cannot connect, and fails (a Babelfish crash row did).
        await Shell.WaitUntilReapedAsync(postmaster, TimeSpan.FromSeconds(30)).ConfigureAwait(false);
        var kill = clock.Elapsed;
        await Task.Delay(downtime).ConfigureAwait(false);
        clock.Restart();
        var started = await Shell.RunAsync("bash", [_startScript, Directory], TimeSpan.FromMinutes(5), _restartEnvironment).ConfigureAwait(false);
        if (started.ExitCode != 0)
        {
            throw new InvalidOperationException($"{Name}: {_startScript} {Directory} failed after the crash ({started.ExitCode}): {started.Output.Trim()}");
        }

        return (kill, clock.Elapsed);
    }

    /// <summary>"fsync=on, synchronous_commit=on, ..." as the engine's PostgreSQL runs them now.</summary>
    public async Task<string> SettingsAsync(IEnumerable<string> names, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(PostgresConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        var values = new List<string>();
        foreach (var name in names)
        {
            await using var command = new NpgsqlCommand("SELECT current_setting(@name)", connection);
            command.Parameters.AddWithValue("name", name);
            values.Add($"{name}={await command.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false)}");
        }

        return string.Join(", ", values);
    }

    /// <summary>ALTER SYSTEM SET each setting (or RESET it, for a null value), then reload: server-wide, on this engine only.</summary>
    public async Task ConfigureAsync(IReadOnlyDictionary<string, string?> settings, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(PostgresConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        foreach (var (name, value) in settings)
        {
            // Names come from the variant catalog, never from input; values are numbers or words of it.
            var sql = value is null ? $"ALTER SYSTEM RESET {name}" : $"ALTER SYSTEM SET {name} = '{value.Replace("'", "''", StringComparison.Ordinal)}'";
            await using var command = new NpgsqlCommand(sql, connection);
            await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
        }

        await using var reload = new NpgsqlCommand("SELECT pg_reload_conf()", connection);
        await reload.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>A line of postmaster.pid: 1 is the postmaster's pid, 4 its port.</summary>
    private static string PidFileLine(string dataDirectory, int line) =>
        File.ReadLines(Path.Combine(dataDirectory, "postmaster.pid")).Skip(line - 1).First().Trim();
}
