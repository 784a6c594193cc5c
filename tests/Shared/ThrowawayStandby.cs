using System.Diagnostics;
using System.Globalization;
using Npgsql;

namespace OrderService.Testing;

/// <summary>
/// A streaming standby of a throwaway primary, on this machine: <c>pg_basebackup -R</c> from the primary into a
/// temp directory (which writes primary_conninfo and standby.signal), then its own port and socket, started with
/// pg_ctl. Run as user postgres when we are root, like the primary. Disposing stops it and deletes the directory.
/// Its replay can be paused and resumed, so a test can make it lag behind the primary deterministically.
/// </summary>
public sealed class ThrowawayStandby : IAsyncDisposable
{
    private const string ServiceAccount = "postgres";
    private readonly string _binDirectory;
    private readonly string _root;
    private readonly bool _asServiceAccount;

    private ThrowawayStandby(string binDirectory, string root, int port, bool asServiceAccount)
    {
        _binDirectory = binDirectory;
        _root = root;
        Port = port;
        _asServiceAccount = asServiceAccount;
    }

    public int Port { get; }

    private string DataDirectory => Path.Combine(_root, "data");

    private string LogFile => Path.Combine(_root, "server.log");

    /// <summary>Clones <paramref name="primary"/> (a local throwaway cluster) and starts the clone as its hot standby.</summary>
    public static async Task<ThrowawayStandby> StartAsync(ThrowawayPostgres primary, CancellationToken cancellationToken = default)
    {
        if (!primary.IsThrowaway)
        {
            throw new InvalidOperationException("A standby is cloned from a local throwaway primary (ThrowawayPostgres.StartLocalAsync).");
        }

        var binDirectory = ThrowawayPostgres.FindBinDirectory() ?? throw new InvalidOperationException("PostgreSQL server binaries were not found.");
        var primaryPort = new NpgsqlConnectionStringBuilder(primary.AdminConnectionString).Port;
        var asServiceAccount = string.Equals(Environment.UserName, "root", StringComparison.Ordinal);
        var root = Path.Combine(Path.GetTempPath(), $"orders-standby-{Guid.NewGuid():N}"[..27]);
        Directory.CreateDirectory(Path.Combine(root, "socket"));
        var standby = new ThrowawayStandby(binDirectory, root, ThrowawayPostgres.FreeLoopbackPort(), asServiceAccount);
        try
        {
            if (asServiceAccount)
            {
                await RunAsync("chown", ["-R", $"{ServiceAccount}:{ServiceAccount}", root], cancellationToken);
            }

            await standby.RunToolAsync("pg_basebackup",
                ["-h", "127.0.0.1", "-p", primaryPort.ToString(CultureInfo.InvariantCulture), "-U", "postgres", "-D", standby.DataDirectory, "-R", "-X", "stream", "--no-sync"],
                cancellationToken);

            // The clone carries the primary's port and socket settings; the later lines win.
            await File.AppendAllLinesAsync(Path.Combine(standby.DataDirectory, "postgresql.conf"),
                [$"port = {standby.Port}", $"unix_socket_directories = '{Path.Combine(root, "socket")}'", "hot_standby = on"], cancellationToken);
            await standby.RunToolAsync("pg_ctl", ["-D", standby.DataDirectory, "-l", standby.LogFile, "-w", "-t", "60", "start"], cancellationToken);
            return standby;
        }
        catch
        {
            await standby.DisposeAsync();
            throw;
        }
    }

    /// <summary>A connection string to <paramref name="database"/> on the standby (read-only: it is in recovery).</summary>
    public string ConnectionString(string database) =>
        new NpgsqlConnectionStringBuilder { Host = "127.0.0.1", Port = Port, Username = "postgres", Database = database, Timeout = 5 }.ConnectionString;

    /// <summary>Stops applying WAL: the standby keeps receiving it but shows nothing newer until <see cref="ResumeReplayAsync"/>.</summary>
    public Task PauseReplayAsync(CancellationToken cancellationToken = default) =>
        ExecuteAsync("SELECT pg_wal_replay_pause()", cancellationToken);

    public Task ResumeReplayAsync(CancellationToken cancellationToken = default) =>
        ExecuteAsync("SELECT pg_wal_replay_resume()", cancellationToken);

    /// <summary>Waits until the standby has replayed everything the primary had written when this was called.</summary>
    public async Task CatchUpAsync(ThrowawayPostgres primary, CancellationToken cancellationToken = default)
    {
        string target;
        await using (var connection = new NpgsqlConnection(primary.AdminConnectionString))
        {
            await connection.OpenAsync(cancellationToken);
            await using var command = new NpgsqlCommand("SELECT pg_current_wal_lsn()::text", connection);
            target = (string)(await command.ExecuteScalarAsync(cancellationToken))!;
        }

        await using var standby = new NpgsqlConnection(ConnectionString("postgres"));
        await standby.OpenAsync(cancellationToken);
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            await using var command = new NpgsqlCommand("SELECT pg_last_wal_replay_lsn() >= @target::pg_lsn", standby);
            command.Parameters.AddWithValue("target", target);
            if ((bool)(await command.ExecuteScalarAsync(cancellationToken))!)
            {
                return;
            }

            if (deadline.Elapsed > TimeSpan.FromSeconds(30))
            {
                throw new TimeoutException($"The standby did not replay up to {target} within 30 s.");
            }

            await Task.Delay(20, cancellationToken);
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (File.Exists(Path.Combine(DataDirectory, "postmaster.pid")))
            {
                await RunToolAsync("pg_ctl", ["-D", DataDirectory, "-m", "immediate", "-w", "-t", "30", "stop"], CancellationToken.None);
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

    private async Task ExecuteAsync(string sql, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(ConnectionString("postgres"));
        await connection.OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand(sql, connection);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    private Task RunToolAsync(string tool, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var path = Path.Combine(_binDirectory, tool);
        return _asServiceAccount
            ? RunAsync("runuser", ["-u", ServiceAccount, "--", path, .. arguments], cancellationToken)
            : RunAsync(path, arguments, cancellationToken);
    }

    private static async Task RunAsync(string file, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {file}.");
        var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"'{file} {string.Join(' ', arguments)}' exited with {process.ExitCode}:\n{await stdout}\n{await stderr}");
        }
    }
}
