using System.ComponentModel;
using System.Diagnostics;
using System.Globalization;
using CliWrap;
using CliWrap.Buffered;
using Npgsql;

namespace OrderService.Testing;

/// <summary>One local cluster driven through initdb and pg_ctl, run as user postgres when we are root.</summary>
internal sealed class PostgresCluster
{
    private const string ServiceAccount = "postgres";
    private readonly string _binDirectory;
    private readonly string _root;
    private readonly bool _asServiceAccount;

    private PostgresCluster(string binDirectory, string root, int port, bool asServiceAccount)
    {
        _binDirectory = binDirectory;
        _root = root;
        Port = port;
        _asServiceAccount = asServiceAccount;
    }

    public int Port { get; }

    public string DataDirectory => Path.Combine(_root, "data");

    /// <summary>The running postmaster's process id (the first line of postmaster.pid), or null when the server is down.</summary>
    public int? PostmasterPid
    {
        get
        {
            try
            {
                return int.Parse(File.ReadLines(Path.Combine(DataDirectory, "postmaster.pid")).First(), CultureInfo.InvariantCulture);
            }
            catch (Exception exception) when (exception is IOException or InvalidOperationException or FormatException)
            {
                return null;
            }
        }
    }

    private string SocketDirectory => Path.Combine(_root, "socket");

    private string LogFile => Path.Combine(_root, "server.log");

    public string ConnectionString(string database) =>
        new NpgsqlConnectionStringBuilder
        {
            Host = "127.0.0.1",
            Port = Port,
            Username = "postgres",
            Database = database,
            Timeout = 5,
        }.ConnectionString;

    public static string? FindBinDirectory()
    {
        static bool HasTools(string? dir) => dir is not null && File.Exists(Path.Combine(dir, "initdb")) && File.Exists(Path.Combine(dir, "pg_ctl"));

        var fromPgConfig = TryRun("pg_config", "--bindir");
        if (HasTools(fromPgConfig))
        {
            return fromPgConfig;
        }

        // Debian keeps the server binaries off PATH, one directory per major version: take the newest.
        const string debianRoot = "/usr/lib/postgresql";
        if (Directory.Exists(debianRoot))
        {
            var newest = Directory.GetDirectories(debianRoot)
                .Select(dir => (dir, version: int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var v) ? v : -1))
                .OrderByDescending(x => x.version)
                .Select(x => Path.Combine(x.dir, "bin"))
                .FirstOrDefault(HasTools);
            if (newest is not null)
            {
                return newest;
            }
        }

        return (Environment.GetEnvironmentVariable("PATH") ?? "")
            .Split(':', StringSplitOptions.RemoveEmptyEntries)
            .FirstOrDefault(HasTools);
    }

    public static async Task<PostgresCluster> CreateAsync(IReadOnlyDictionary<string, string>? settings, CancellationToken cancellationToken)
    {
        var binDirectory = FindBinDirectory() ?? throw new InvalidOperationException(
            "PostgreSQL server binaries (initdb, pg_ctl) were not found. Install them with " +
            "'apt-get update && apt-get install -y postgresql' (scripts/test.sh does this when run as root), " +
            $"or set {ThrowawayPostgres.ExternalServerVariable} to a connection string.");

        // initdb refuses to run as root, so root hands the cluster to the postgres account.
        var asServiceAccount = string.Equals(Environment.UserName, "root", StringComparison.Ordinal);
        var root = Path.Combine(Path.GetTempPath(), $"orders-pg-{Guid.NewGuid():N}"[..22]);
        Directory.CreateDirectory(root);
        Directory.CreateDirectory(Path.Combine(root, "socket"));
        var cluster = new PostgresCluster(binDirectory, root, FreePort.Loopback(), asServiceAccount);
        try
        {
            if (asServiceAccount)
            {
                await RunAsync("chown", ["-R", $"{ServiceAccount}:{ServiceAccount}", root], cancellationToken);
            }

            // --no-sync only skips initdb's own final fsync of the template files; the server keeps fsync on.
            await cluster.RunToolAsync("initdb", ["-D", cluster.DataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"], cancellationToken);
            var conf = new Dictionary<string, string>(StringComparer.Ordinal)
            {
                ["listen_addresses"] = "'127.0.0.1'",
                ["port"] = cluster.Port.ToString(CultureInfo.InvariantCulture),
                ["unix_socket_directories"] = $"'{cluster.SocketDirectory}'",
                // The switch matrix keeps one host, so one pool, per combination alive: 24 pools of up to 25
                // connections must fit beside the other test classes. The default 100 is far too few.
                ["max_connections"] = "1000",
                ["fsync"] = "on",
            };
            foreach (var (key, value) in settings ?? new Dictionary<string, string>())
            {
                conf[key] = value;
            }

            await File.AppendAllLinesAsync(Path.Combine(cluster.DataDirectory, "postgresql.conf"),
                conf.Select(kv => $"{kv.Key} = {kv.Value}"), cancellationToken);
            return cluster;
        }
        catch
        {
            cluster.StopImmediatelyAndDelete();
            throw;
        }
    }

    /// <summary>
    /// A streaming standby of <paramref name="primary"/> (pg_basebackup -R: it follows the primary, read-only) on a
    /// port and folder of its own; not started yet.
    /// </summary>
    public static async Task<PostgresCluster> CreateStandbyAsync(PostgresCluster primary, CancellationToken cancellationToken)
    {
        var root = Path.Combine(Path.GetTempPath(), $"orders-pg-{Guid.NewGuid():N}"[..22]);
        Directory.CreateDirectory(root);
        Directory.CreateDirectory(Path.Combine(root, "socket"));
        var standby = new PostgresCluster(primary._binDirectory, root, FreePort.Loopback(), primary._asServiceAccount);
        try
        {
            if (standby._asServiceAccount)
            {
                await RunAsync("chown", ["-R", $"{ServiceAccount}:{ServiceAccount}", root], cancellationToken);
            }

            await standby.RunToolAsync("pg_basebackup", ["-h", "127.0.0.1", "-p", primary.Port.ToString(CultureInfo.InvariantCulture),
                "-U", "postgres", "-D", standby.DataDirectory, "-R", "-X", "stream", "--no-sync"], cancellationToken);

            // The copied postgresql.conf names the primary's port and socket folder: the last line of a setting wins.
            await File.AppendAllLinesAsync(Path.Combine(standby.DataDirectory, "postgresql.conf"),
                [$"port = {standby.Port}", $"unix_socket_directories = '{standby.SocketDirectory}'"], cancellationToken);
            return standby;
        }
        catch
        {
            standby.StopImmediatelyAndDelete();
            throw;
        }
    }

    public Task StartAsync(CancellationToken cancellationToken) =>
        RunToolAsync("pg_ctl", ["-D", DataDirectory, "-l", LogFile, "-w", "-t", "60", "start"], cancellationToken);

    public Task StopAsync(string mode, CancellationToken cancellationToken) =>
        RunToolAsync("pg_ctl", ["-D", DataDirectory, "-m", mode, "-w", "-t", "60", "stop"], cancellationToken);

    public async Task KillAsync(CancellationToken cancellationToken)
    {
        var pid = PostmasterPid ?? throw new InvalidOperationException($"No postmaster.pid in {DataDirectory}: the server is not running.");
        using var postmaster = Process.GetProcessById(pid);
        postmaster.Kill(entireProcessTree: true);
        await postmaster.WaitForExitAsync(cancellationToken);
    }

    /// <summary>Teardown that never throws: immediate stop (nothing to keep), then the directory goes.</summary>
    public void StopImmediatelyAndDelete()
    {
        try
        {
            if (File.Exists(Path.Combine(DataDirectory, "postmaster.pid")))
            {
                RunToolAsync("pg_ctl", ["-D", DataDirectory, "-m", "immediate", "-w", "-t", "30", "stop"], CancellationToken.None)
                    .GetAwaiter().GetResult();
            }
        }
        catch (InvalidOperationException)
        {
            // Already stopped or half-created; deleting the directory is all that is left.
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

    private Task RunToolAsync(string tool, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var path = Path.Combine(_binDirectory, tool);
        return _asServiceAccount
            ? RunAsync("runuser", ["-u", ServiceAccount, "--", path, .. arguments], cancellationToken, LogFile)
            : RunAsync(path, arguments, cancellationToken, LogFile);
    }

    private static async Task RunAsync(string file, IReadOnlyList<string> arguments, CancellationToken cancellationToken, string? serverLog = null)
    {
        var result = await Cli.Wrap(file).WithArguments(arguments).WithValidation(CommandResultValidation.None)
            .ExecuteBufferedAsync(cancellationToken);
        if (result.ExitCode != 0)
        {
            var log = serverLog is not null && File.Exists(serverLog) ? string.Join('\n', File.ReadLines(serverLog).TakeLast(20)) : "";
            throw new InvalidOperationException(
                $"'{file} {string.Join(' ', arguments)}' exited with {result.ExitCode}:\n" +
                $"{result.StandardOutput}\n{result.StandardError}\n{log}");
        }
    }

    private static string? TryRun(string file, string argument)
    {
        try
        {
            var result = Cli.Wrap(file).WithArguments([argument]).WithValidation(CommandResultValidation.None)
                .ExecuteBufferedAsync().Task.GetAwaiter().GetResult();
            var output = result.StandardOutput.Trim();
            return result.ExitCode == 0 && output.Length > 0 ? output : null;
        }
        catch (Win32Exception)
        {
            return null; // pg_config is not installed
        }
    }
}
