using OrderService.Load.Driver;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class LatencyHistogramTests
{
    [Theory]
    [InlineData(50.0)]
    [InlineData(95.0)]
    [InlineData(99.0)]
    [InlineData(99.9)]
    public void Percentiles_are_within_one_percent_of_the_exact_value_from_microseconds_to_seconds(double percentile)
    {
        // A long-tailed mix like real latencies: mostly a few ms, a tail up to ~8 s.
        var random = new Random(42);
        var values = Enumerable.Range(0, 200_000)
            .Select(_ => (long)Math.Exp(random.NextDouble() * random.NextDouble() * Math.Log(8_000_000)) + 50)
            .ToArray();
        var histogram = new LatencyHistogram();
        foreach (var value in values)
        {
            histogram.Record(value);
        }

        Array.Sort(values);
        var exact = values[(int)Math.Ceiling(percentile / 100 * values.Length) - 1];
        var measured = histogram.ValueAtPercentile(percentile);

        ((double)Math.Abs(measured - exact)).ShouldBeLessThanOrEqualTo(exact * 0.01, $"p{percentile}: exact {exact} µs, measured {measured} µs");
    }

    [Theory]
    [InlineData(1L)]
    [InlineData(127L)]
    [InlineData(128L)]
    [InlineData(1_000L)]
    [InlineData(2_500_000L)]
    [InlineData(59_999_999L)]
    public void A_single_value_reads_back_within_one_percent_at_any_percentile(long microseconds)
    {
        var histogram = new LatencyHistogram();
        histogram.Record(microseconds);

        foreach (var percentile in new[] { 0.0, 50, 99, 100 })
        {
            var measured = histogram.ValueAtPercentile(percentile);
            Math.Abs(measured - microseconds).ShouldBeLessThanOrEqualTo(microseconds / 100);
        }

        histogram.MaxMicroseconds.ShouldBe(microseconds);
        histogram.MinMicroseconds.ShouldBe(microseconds);
    }

    [Fact]
    public void Buckets_tile_the_range_without_gaps_or_overlaps_and_stay_narrower_than_one_percent()
    {
        long expectedLow = 0;
        for (var index = 0; index <= LatencyHistogram.IndexOf(LatencyHistogram.MaxTrackableMicroseconds); index++)
        {
            var (low, high) = LatencyHistogram.BucketBounds(index);
            low.ShouldBe(expectedLow, $"bucket {index}");
            LatencyHistogram.IndexOf(low).ShouldBe(index);
            LatencyHistogram.IndexOf(high).ShouldBe(index);
            ((double)(high - low) / Math.Max(1, low)).ShouldBeLessThan(0.01);
            expectedLow = high + 1;
        }

        expectedLow.ShouldBe(LatencyHistogram.MaxTrackableMicroseconds + 1);
    }

    [Fact]
    public void Concurrent_recording_loses_no_counts()
    {
        var histogram = new LatencyHistogram();
        Parallel.For(0, 8, worker =>
        {
            for (var i = 0; i < 50_000; i++)
            {
                histogram.Record(1_000 + (i % 5_000));
            }
        });

        histogram.Count.ShouldBe(400_000);
        histogram.NonEmptyBuckets().Sum(b => b.Count).ShouldBe(400_000);
    }

    [Fact]
    public void Adding_histograms_equals_recording_everything_into_one()
    {
        var left = new LatencyHistogram();
        var right = new LatencyHistogram();
        var both = new LatencyHistogram();
        for (var i = 1; i <= 10_000; i++)
        {
            (i % 3 == 0 ? left : right).Record(i * 37L);
            both.Record(i * 37L);
        }

        left.Add(right);

        left.Count.ShouldBe(both.Count);
        left.MeanMicroseconds.ShouldBe(both.MeanMicroseconds);
        left.MaxMicroseconds.ShouldBe(both.MaxMicroseconds);
        left.MinMicroseconds.ShouldBe(both.MinMicroseconds);
        left.ValueAtPercentile(99).ShouldBe(both.ValueAtPercentile(99));
    }

    [Fact]
    public void An_empty_histogram_reports_zero()
    {
        var histogram = new LatencyHistogram();
        histogram.ValueAtPercentile(99).ShouldBe(0);
        histogram.MeanMicroseconds.ShouldBe(0);
        histogram.MaxMicroseconds.ShouldBe(0);
    }
}
