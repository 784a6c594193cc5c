using HdrHistogram;

namespace OrderService.Load.Driver;

/// <summary>
/// How the driver records latency: HdrHistogram in nanoseconds (the unit HdrHistogram's log tools assume when
/// they print milliseconds), from 1 ns to one hour, 3 significant digits (every value within 0.1%).
/// Concurrent histograms, so all copies of a scenario record into one without a lock.
/// </summary>
public static class LatencyHistograms
{
    /// <summary>One hour: a step that takes longer has failed the run long before; longer values are clamped, never thrown.</summary>
    public const long HighestTrackableNanoseconds = 3_600_000_000_000;

    public const int SignificantDigits = 3;

    private const double NanosecondsPerMillisecond = 1_000_000;

    public static HistogramBase Create() => new LongConcurrentHistogram(1, HighestTrackableNanoseconds, SignificantDigits);

    public static void Record(this HistogramBase histogram, TimeSpan elapsed) =>
        histogram.RecordValue(Math.Clamp(elapsed.Ticks * TimeSpan.NanosecondsPerTick, 0, HighestTrackableNanoseconds));

    /// <summary>The value at <paramref name="percentile"/> (0..100) in milliseconds; 0 for an empty histogram.</summary>
    public static double MillisecondsAt(this HistogramBase histogram, double percentile) =>
        histogram.TotalCount == 0 ? 0 : histogram.GetValueAtPercentile(percentile) / NanosecondsPerMillisecond;

    public static double MaxMilliseconds(this HistogramBase histogram) =>
        histogram.TotalCount == 0 ? 0 : histogram.GetMaxValue() / NanosecondsPerMillisecond;

    public static double MeanMilliseconds(this HistogramBase histogram) =>
        histogram.TotalCount == 0 ? 0 : histogram.GetMean() / NanosecondsPerMillisecond;
}
