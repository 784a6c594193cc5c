using OrderService.Load.Driver;

namespace OrderService.Load.Shootout;

/// <summary>
/// The warm-up before each measured run (HTTP and raw). Adaptive by default: windows of a few rounds per copy until two
/// consecutive windows agree within 5% on wf/s (steady state: JIT tiers, pools and caches have settled), or until the
/// --warmup cap; --warmup-fixed runs exactly the cap, as one run.
/// </summary>
public sealed partial class ShootoutRunner
{
    /// <param name="label">What the live view calls it.</param>
    /// <param name="scenario">A closed scenario of the given size; the second argument numbers the window, so that every window writes its own customers.</param>
    private async Task<WarmupUsed> WarmUpAsync(string label, Func<int, int, Scenario> scenario, CancellationToken cancellationToken)
    {
        if (options.Warmup <= 0)
        {
            return WarmupUsed.None;
        }

        if (options.WarmupFixed)
        {
            var rate = await RunWindowAsync(label, scenario(options.Warmup, 0), cancellationToken).ConfigureAwait(false);
            return new WarmupUsed(WarmupUsed.Fixed, options.Warmup, options.Warmup, [rate], false);
        }

        var detector = new SteadyStateDetector();
        var used = 0;
        var window = 0;
        foreach (var size in WarmupWindows.Plan(options.Warmup, options.Concurrency))
        {
            var rate = await RunWindowAsync($"{label} {window + 1}", scenario(size, window), cancellationToken).ConfigureAwait(false);
            used += size;
            window++;
            if (detector.Add(rate))
            {
                break;
            }
        }

        return new WarmupUsed(WarmupUsed.Adaptive, used, options.Warmup, [.. detector.Rates], detector.IsSteady);
    }

    private async Task<double> RunWindowAsync(string label, Scenario scenario, CancellationToken cancellationToken)
    {
        var run = new LoadRun([scenario]);
        var stats = (await LiveProgress.TrackAsync(label, run, run.RunAsync(cancellationToken), _estimate).ConfigureAwait(false))[0];
        return stats.Elapsed.TotalSeconds > 0 ? stats.OkIterations / stats.Elapsed.TotalSeconds : 0;
    }
}
