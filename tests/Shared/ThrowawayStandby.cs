using System.Diagnostics;
using Npgsql;

namespace OrderService.Testing;

/// <summary>
/// A streaming standby of a throwaway primary (<see cref="ThrowawayPostgres.StartStandbyAsync"/>: pg_basebackup -R,
/// its own port and folder), with what the read-replica tests need on top: its replay can be paused and resumed, so a
/// test can make it lag behind the primary deterministically, and a test can wait until it has caught up.
/// Disposing stops it and deletes its folder.
/// </summary>
public sealed class ThrowawayStandby : IAsyncDisposable
{
    private readonly ThrowawayPostgres _server;

    private ThrowawayStandby(ThrowawayPostgres server) => _server = server;

    public int Port => _server.Port;

    /// <summary>Clones <paramref name="primary"/> (a local throwaway cluster) and starts the clone as its hot standby.</summary>
    public static async Task<ThrowawayStandby> StartAsync(ThrowawayPostgres primary, CancellationToken cancellationToken = default)
    {
        if (!primary.IsThrowaway)
        {
            throw new InvalidOperationException("A standby is cloned from a local throwaway primary (ThrowawayPostgres.StartLocalAsync).");
        }

        return new ThrowawayStandby(await primary.StartStandbyAsync(cancellationToken));
    }

    /// <summary>A connection string to <paramref name="database"/> on the standby (read-only: it is in recovery).</summary>
    public string ConnectionString(string database) =>
        new NpgsqlConnectionStringBuilder(_server.AdminConnectionString) { Database = database, Timeout = 5 }.ConnectionString;

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

    public ValueTask DisposeAsync() => _server.DisposeAsync();

    private async Task ExecuteAsync(string sql, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(ConnectionString("postgres"));
        await connection.OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand(sql, connection);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }
}
