using System.Diagnostics;
using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// Waits, after a warm-up, until the tiered JIT of the given processes has gone quiet. Under load the tiering thread
/// gets a small share of the shared cores, so a warm-up that reaches a steady wf/s can end with hot methods still
/// queued for their optimized compile; a measured run that starts then pays for the compiles and runs the slower code
/// meanwhile (about twice the service's CPU per workflow, seen in the report's JIT column). Idle, the thread finishes
/// its queue in about a second.
/// </summary>
public static class JitSettle
{
    /// <summary>No JIT CPU for this long counts as settled (ticks are 10 ms; a compiling thread with a free core ticks at once).</summary>
    public static readonly TimeSpan Quiet = TimeSpan.FromMilliseconds(500);

    /// <summary>The longest wait: a JIT still busy by then is left to show in the report's JIT column.</summary>
    public static readonly TimeSpan Cap = TimeSpan.FromSeconds(30);

    /// <summary>Waits until no JIT thread of <paramref name="pids"/> has used CPU for <see cref="Quiet"/>, or <see cref="Cap"/>; returns the time it took.</summary>
    public static async Task<TimeSpan> WaitAsync(IReadOnlyCollection<int> pids, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        var last = JitTicks(pids);
        var quietSince = TimeSpan.Zero;
        while (clock.Elapsed - quietSince < Quiet && clock.Elapsed < Cap)
        {
            await Task.Delay(50, cancellationToken).ConfigureAwait(false);
            var now = JitTicks(pids);
            if (now != last)
            {
                // A tiering thread that exits when idle takes its ticks along: any change is activity, or its end.
                last = now;
                quietSince = clock.Elapsed;
            }
        }

        return clock.Elapsed;
    }

    /// <summary>Prints how long the JIT took to settle when it was still compiling after the warm-up.</summary>
    public static async Task SettleAsync(string label, IReadOnlyCollection<int> pids, CancellationToken cancellationToken)
    {
        var waited = await WaitAsync(pids, cancellationToken).ConfigureAwait(false);
        if (waited >= Cap)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"   {label}: the JIT was still compiling {Cap.TotalSeconds:F0} s after the warm-up; measuring anyway (the report's JIT column shows it)."));
        }
        else if (waited > Quiet + TimeSpan.FromMilliseconds(200))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"   {label}: the JIT finished its queue {(waited - Quiet).TotalSeconds:F1} s after the warm-up."));
        }
    }

    private static long JitTicks(IReadOnlyCollection<int> pids) =>
        pids.Sum(pid => ThreadCpu.Of(pid)?.Threads.Values.Where(thread => ThreadCpu.KindOf(thread.Name) == ThreadCpu.Jit).Sum(thread => thread.Ticks) ?? 0);
}
