namespace OrderService.Load.Driver;

/// <summary>
/// A log-linear latency histogram in microseconds (HdrHistogram's idea, our code): values below
/// 2^<see cref="PrecisionBits"/> get one bucket each; above that, every power of two is split into
/// 2^<see cref="PrecisionBits"/> equal buckets, so a bucket is never wider than 1/128 of its values
/// (0.8%) and its midpoint is within 0.4% of any value in it, from microseconds up to hours.
/// Recording is lock-free, so all copies of a scenario can share one histogram.
/// </summary>
public sealed class LatencyHistogram
{
    public const int PrecisionBits = 7;
    private const int SubBuckets = 1 << PrecisionBits;

    /// <summary>2^36 µs is about 19 hours: anything longer is clamped (a load test would have failed long before).</summary>
    public const long MaxTrackableMicroseconds = (1L << 36) - 1;

    private static readonly int BucketCount = IndexOf(MaxTrackableMicroseconds) + 1;

    private readonly long[] _counts = new long[BucketCount];
    private long _totalCount;
    private long _sum;
    private long _max;
    private long _min = long.MaxValue;

    public long Count => Interlocked.Read(ref _totalCount);

    public long MaxMicroseconds => Count == 0 ? 0 : Interlocked.Read(ref _max);

    public long MinMicroseconds => Count == 0 ? 0 : Interlocked.Read(ref _min);

    public double MeanMicroseconds => Count == 0 ? 0 : (double)Interlocked.Read(ref _sum) / Count;

    public void RecordElapsed(TimeSpan elapsed) => Record((long)elapsed.TotalMicroseconds);

    public void Record(long microseconds) => Record(microseconds, 1);

    public void Record(long microseconds, long count)
    {
        var value = Math.Clamp(microseconds, 0, MaxTrackableMicroseconds);
        Interlocked.Add(ref _counts[IndexOf(value)], count);
        Interlocked.Add(ref _totalCount, count);
        Interlocked.Add(ref _sum, value * count);
        UpdateMax(value);
        UpdateMin(value);
    }

    /// <summary>
    /// The value at <paramref name="percentile"/> (0..100): the midpoint of the bucket holding the
    /// ceil(p% × count)-th smallest value, clamped to the observed min and max.
    /// </summary>
    public long ValueAtPercentile(double percentile)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(percentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        var total = Count;
        if (total == 0)
        {
            return 0;
        }

        var rank = Math.Max(1, (long)Math.Ceiling(percentile / 100 * total));
        long seen = 0;
        for (var index = 0; index < _counts.Length; index++)
        {
            seen += Interlocked.Read(ref _counts[index]);
            if (seen >= rank)
            {
                var (low, high) = BucketBounds(index);
                return Math.Clamp(low + ((high - low) / 2), MinMicroseconds, MaxMicroseconds);
            }
        }

        return MaxMicroseconds;
    }

    public double MillisecondsAtPercentile(double percentile) => ValueAtPercentile(percentile) / 1000.0;

    /// <summary>Adds another histogram's counts (e.g. per-copy histograms, or a crash run's two halves).</summary>
    public void Add(LatencyHistogram other)
    {
        foreach (var bucket in other.NonEmptyBuckets())
        {
            Interlocked.Add(ref _counts[IndexOf(bucket.LowMicroseconds)], bucket.Count);
        }

        Interlocked.Add(ref _totalCount, other.Count);
        Interlocked.Add(ref _sum, Interlocked.Read(ref other._sum));
        if (other.Count > 0)
        {
            UpdateMax(other.MaxMicroseconds);
            UpdateMin(other.MinMicroseconds);
        }
    }

    /// <summary>The raw distribution, for the report's histogram files: only buckets that hold values.</summary>
    public IEnumerable<HistogramBucket> NonEmptyBuckets()
    {
        for (var index = 0; index < _counts.Length; index++)
        {
            var count = Interlocked.Read(ref _counts[index]);
            if (count > 0)
            {
                var (low, high) = BucketBounds(index);
                yield return new HistogramBucket(low, high, count);
            }
        }
    }

    /// <summary>The bucket of a value: exact below 2^P; above, P bits of mantissa per power of two.</summary>
    internal static int IndexOf(long value)
    {
        if (value < SubBuckets)
        {
            return (int)value;
        }

        var exponent = 63 - long.LeadingZeroCount(value);
        var shift = (int)exponent - PrecisionBits;
        var mantissa = value >> shift;
        return (shift * SubBuckets) + (int)mantissa;
    }

    /// <summary>The lowest and highest value (inclusive) a bucket holds.</summary>
    internal static (long Low, long High) BucketBounds(int index)
    {
        if (index < 2 * SubBuckets)
        {
            return (index, index);
        }

        var shift = (index / SubBuckets) - 1;
        var mantissa = (long)(index - (shift * SubBuckets));
        var low = mantissa << shift;
        return (low, low + (1L << shift) - 1);
    }

    private void UpdateMax(long value)
    {
        var current = Interlocked.Read(ref _max);
        while (value > current)
        {
            var seen = Interlocked.CompareExchange(ref _max, value, current);
            if (seen == current)
            {
                return;
            }

            current = seen;
        }
    }

    private void UpdateMin(long value)
    {
        var current = Interlocked.Read(ref _min);
        while (value < current)
        {
            var seen = Interlocked.CompareExchange(ref _min, value, current);
            if (seen == current)
            {
                return;
            }

            current = seen;
        }
    }
}

/// <summary>One bucket of the raw distribution, inclusive bounds in microseconds.</summary>
public sealed record HistogramBucket(long LowMicroseconds, long HighMicroseconds, long Count);
