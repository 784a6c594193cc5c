using System.Diagnostics;
using OrderService.Load.Scenarios;

namespace OrderService.Load.Shootout;

/// <summary>
/// A crash run's crash: a third of the way in, kill -9 of the engine the harness owns (PostgreSQL, Babelfish's or
/// FerretDB's PostgreSQL) or of the service (SQLite lives in it), a restart, and, when the engine comes back too slowly
/// to finish the run, an end to new workflows <see cref="ShootoutOptions.CrashWindowSeconds"/> after the restart.
/// </summary>
public sealed partial class ShootoutRunner
{
    private async Task<string?> CrashMidRunAsync(WorkBudget load, Task running, StoreTarget target, ServiceProcess service, CancellationToken cancellationToken)
    {
        var crashPoint = options.Workflows / 3;
        while (load.Finished < crashPoint)
        {
            if (running.IsCompleted)
            {
                return "the run finished before the crash point";
            }

            await Task.Delay(10, cancellationToken).ConfigureAwait(false);
        }

        var note = await CrashAndRestartAsync(load.Finished, target, service, cancellationToken).ConfigureAwait(false);
        if (options.CrashWindowSeconds > 0)
        {
            var window = TimeSpan.FromSeconds(options.CrashWindowSeconds);
            if (await Task.WhenAny(running, Task.Delay(window, cancellationToken)).ConfigureAwait(false) != running)
            {
                load.Close();
                note += Invariant($"; {options.CrashWindowSeconds} s after the restart the run stopped starting workflows ({load.Claimed:N0} of {load.Limit:N0} started), let the running ones finish and audited every acknowledged one");
            }
        }

        return note;
    }

    private async Task<string> CrashAndRestartAsync(long done, StoreTarget target, ServiceProcess service, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        if (target.CrashAndRestartAsync((int)done) is { } engineCrash)
        {
            return await engineCrash.ConfigureAwait(false);
        }

        if (target is PostgresTarget { OwnsProcess: true } postgres)
        {
            var (kill, restart) = await postgres.CrashAndRestartAsync(TimeSpan.FromSeconds(1)).ConfigureAwait(false);
            return Invariant($"kill -9 of the PostgreSQL postmaster and its backends after {done} workflows (gone in {kill.TotalSeconds:F1} s, 1 s down, pg_ctl start with crash recovery {restart.TotalSeconds:F1} s)");
        }

        await service.CrashAndRestartAsync(TimeSpan.FromMilliseconds(500), cancellationToken).ConfigureAwait(false);
        return Invariant($"kill -9 of the service process (SQLite lives in it) after {done} workflows; ready again after {clock.Elapsed.TotalSeconds:F1} s");
    }
}
