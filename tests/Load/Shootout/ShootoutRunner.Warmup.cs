using NBomber.Contracts;
using OrderService.Load.Scenarios;

namespace OrderService.Load.Shootout;

/// <summary>
/// The warm-up before each measured run (HTTP and raw), and the measured runs themselves, as NBomber sessions.
/// The warm-up is the harness's, not NBomber's: NBomber warms up for a fixed time, which cannot tell a settled service
/// from one still compiling; this one runs the same scenario in windows of a few rounds per copy until two consecutive
/// windows agree within 5% on wf/s (steady state: pools and caches have settled), or until the --warmup cap;
/// --warmup-fixed runs exactly the cap. The windows are slices of one NBomber session, so no window pays a ramp-up.
/// The tiered JIT can still have a queue then; <see cref="JitSettle"/> waits it out before the measured run.
/// </summary>
public sealed partial class ShootoutRunner
{
    /// <param name="label">What the live view calls it.</param>
    /// <param name="folder">The session's NBomber folder (its log; no reports for a warm-up).</param>
    /// <param name="scenario">A closed scenario of the given size.</param>
    private async Task<WarmupUsed> WarmUpAsync(string label, string folder, Func<int, ClosedScenario> scenario, CancellationToken cancellationToken)
    {
        if (options.Warmup <= 0)
        {
            return WarmupUsed.None;
        }

        if (options.WarmupFixed)
        {
            var run = await RunClosedAsync(label, folder, scenario(options.Warmup), reports: false, cancellationToken: cancellationToken).ConfigureAwait(false);
            return new WarmupUsed(WarmupUsed.Fixed, options.Warmup, options.Warmup, [run.WorkflowsPerSecond], false);
        }

        var windows = WarmupWindows.Plan(options.Warmup, options.Concurrency).ToList();
        var warmup = scenario(options.Warmup);
        var detector = new SteadyStateDetector();
        using var runEnded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var watching = WatchWindowsAsync(warmup, windows, detector, runEnded.Token);
        try
        {
            await RunClosedAsync(label, folder, warmup, reports: false, cancellationToken: cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            // A session that failed never drains: the watcher must not poll on after it.
            await runEnded.CancelAsync().ConfigureAwait(false);
        }

        await watching.ConfigureAwait(false);
        return new WarmupUsed(WarmupUsed.Adaptive, (int)warmup.Budget.Finished, options.Warmup, [.. detector.Rates], detector.IsSteady);
    }

    /// <summary>Times each window of the warm-up as its workflows finish, and stops starting new ones at steady state.</summary>
    private static async Task WatchWindowsAsync(ClosedScenario warmup, List<int> windows, SteadyStateDetector detector, CancellationToken cancellationToken)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var windowStart = TimeSpan.Zero;
        long windowEnd = 0;
        foreach (var size in windows)
        {
            windowEnd += size;
            while (warmup.Budget.Finished < windowEnd && !warmup.Drained.IsCompleted && !cancellationToken.IsCancellationRequested)
            {
                await Task.Delay(5, CancellationToken.None).ConfigureAwait(false);
            }

            if (warmup.Budget.Finished < windowEnd)
            {
                return;
            }

            var elapsed = clock.Elapsed - windowStart;
            windowStart = clock.Elapsed;
            if (detector.Add(elapsed.TotalSeconds > 0 ? size / elapsed.TotalSeconds : 0))
            {
                warmup.Budget.Close();
                return;
            }
        }
    }

    /// <summary>Runs <paramref name="scenario"/> (and its <paramref name="companions"/>) as one NBomber session into <paramref name="folder"/>.</summary>
    private async Task<ScenarioResult> RunClosedAsync(
        string label, string folder, ClosedScenario scenario, bool reports, IReadOnlyList<ScenarioProps>? companions = null, CancellationToken cancellationToken = default)
    {
        await using var closeOnCancel = cancellationToken.Register(scenario.Budget.Close).ConfigureAwait(false);
        var running = LoadSession.RunAsync(folder, label, reports, [scenario.Build(), .. companions ?? []]);
        var stats = await LiveProgress.TrackAsync(label, scenario, running, _estimate).ConfigureAwait(false);
        return ScenarioResult.From(stats.Scenario(scenario.Name), scenario.Elapsed);
    }
}
