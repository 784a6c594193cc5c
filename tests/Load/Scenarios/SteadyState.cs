namespace OrderService.Load.Scenarios;

/// <summary>
/// Decides when a warm-up has reached steady state: the throughput of two consecutive windows differs by at most
/// <see cref="Tolerance"/> of the larger one. A service that is still JIT-compiling, filling its pools or growing its
/// caches speeds up from window to window; once two windows agree, more warm-up buys nothing measurable.
/// </summary>
public sealed class SteadyStateDetector(double tolerance = SteadyStateDetector.DefaultTolerance)
{
    public const double DefaultTolerance = 0.05;

    private readonly List<double> _rates = [];

    public double Tolerance { get; } = tolerance is > 0 and < 1 ? tolerance : throw new ArgumentOutOfRangeException(nameof(tolerance));

    /// <summary>Throughput (workflows/s) of every window so far, in order.</summary>
    public IReadOnlyList<double> Rates => _rates;

    public bool IsSteady { get; private set; }

    /// <summary>Adds a window's throughput and returns whether it and the window before it agree within the tolerance.</summary>
    public bool Add(double workflowsPerSecond)
    {
        if (double.IsNaN(workflowsPerSecond) || workflowsPerSecond < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(workflowsPerSecond), workflowsPerSecond, "A throughput is a non-negative number.");
        }

        _rates.Add(workflowsPerSecond);
        IsSteady = _rates.Count >= 2 && Agree(_rates[^2], _rates[^1], Tolerance);
        return IsSteady;
    }

    /// <summary>True when neither rate is zero and they differ by at most <paramref name="tolerance"/> of the larger.</summary>
    public static bool Agree(double previous, double last, double tolerance) =>
        previous > 0 && last > 0 && Math.Abs(last - previous) <= tolerance * Math.Max(previous, last);
}

/// <summary>
/// How the adaptive warm-up cuts its budget into windows. A window holds a few rounds of every copy (3 × copies), so
/// that its ramp-up and drain weigh little; at least 50, so a window at low concurrency still lasts long enough to measure.
/// </summary>
public static class WarmupWindows
{
    public const int RoundsPerWindow = 3;

    public const int MinimumWindow = 50;

    public static int Size(int copies) => Math.Max(MinimumWindow, RoundsPerWindow * Math.Max(1, copies));

    /// <summary>The window sizes for a cap: full windows, then what is left (never more than <paramref name="cap"/> in total).</summary>
    public static IEnumerable<int> Plan(int cap, int copies)
    {
        var size = Size(copies);
        for (var used = 0; used < cap; used += size)
        {
            yield return Math.Min(size, cap - used);
        }
    }
}
