using System.Text;
using HdrHistogram;
using OrderService.Load.Driver;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class HistogramLogTests : IDisposable
{
    private static readonly DateTimeOffset RunStart = new(2026, 11, 22, 10, 0, 0, TimeSpan.Zero);
    private readonly string _directory = Directory.CreateTempSubdirectory("orders-hlog-").FullName;

    [Fact]
    public async Task A_run_log_reads_back_with_HdrHistogram_s_reader_with_every_tag_count_percentile_and_interval()
    {
        var ok = Recorded(TimeSpan.FromMicroseconds(800), TimeSpan.FromMilliseconds(3), 20_000, seed: 1);
        var failed = Recorded(TimeSpan.FromMilliseconds(40), TimeSpan.FromSeconds(2), 37, seed: 2);
        Stamp(ok, HistogramLog.Tag("v1-shared-uow", "workflow", "pay", "ok"), RunStart, TimeSpan.FromSeconds(12.5));
        Stamp(failed, HistogramLog.Tag("v1-shared-uow", "workflow", "pay", "failed"), RunStart, TimeSpan.FromSeconds(12.5));
        var path = Path.Combine(_directory, "run.hlog");

        await HistogramLog.WriteAsync(path, RunStart, [ok, failed], TestContext.Current.CancellationToken);
        var read = HistogramLog.Read(path);

        read.Select(h => h.Tag).ShouldBe(["v1-shared-uow/workflow/pay/ok", "v1-shared-uow/workflow/pay/failed"]);
        foreach (var (written, back) in new[] { ok, failed }.Zip(read))
        {
            back.TotalCount.ShouldBe(written.TotalCount);
            back.GetMaxValue().ShouldBe(written.GetMaxValue());
            foreach (var percentile in new[] { 50.0, 99, 99.9 })
            {
                back.GetValueAtPercentile(percentile).ShouldBe(written.GetValueAtPercentile(percentile));
            }

            back.StartTimeStamp.ShouldBe(RunStart.ToUnixTimeMilliseconds());
            back.EndTimeStamp.ShouldBe(RunStart.ToUnixTimeMilliseconds() + 12_500);
        }
    }

    [Fact]
    public async Task The_log_is_plain_ASCII_text_in_the_standard_layout_that_HdrHistogram_tools_in_other_languages_parse()
    {
        var histogram = Recorded(TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(5), 100, seed: 3);
        Stamp(histogram, "k/workflow/create/ok", RunStart, TimeSpan.FromSeconds(1));
        var path = Path.Combine(_directory, "ascii.hlog");

        await HistogramLog.WriteAsync(path, RunStart, [histogram], TestContext.Current.CancellationToken);

        var bytes = await File.ReadAllBytesAsync(path, TestContext.Current.CancellationToken);
        bytes.ShouldAllBe(b => b >= 0x0A && b < 0x80, "no byte-order mark, no UTF-16 NULs: Java, Python and Go readers expect ASCII lines");
        var lines = Encoding.ASCII.GetString(bytes).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        lines[0].ShouldBe("#[Histogram log format version 1.3]");
        lines[1].ShouldStartWith("#[StartTime: 1795341600.000 (seconds since epoch)");
        lines[2].ShouldBe("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"");
        lines[3].ShouldStartWith("Tag=k/workflow/create/ok,1795341600.000,1.000,");
        lines.Length.ShouldBe(4);
    }

    [Fact]
    public async Task Logs_of_separate_runs_merge_into_the_distribution_of_everything_recorded_at_once()
    {
        var everything = LatencyHistograms.Create();
        var paths = new List<string>();
        for (var run = 0; run < 3; run++)
        {
            var histogram = Recorded(TimeSpan.FromMilliseconds(1 + run), TimeSpan.FromMilliseconds(50 * (run + 1)), 5_000, seed: 10 + run);
            everything.Add(histogram);
            Stamp(histogram, "k/workflow/ship/ok", RunStart.AddMinutes(run), TimeSpan.FromSeconds(30));
            paths.Add(Path.Combine(_directory, $"run{run}.hlog"));
            await HistogramLog.WriteAsync(paths[^1], RunStart.AddMinutes(run), [histogram], TestContext.Current.CancellationToken);
        }

        var merged = LatencyHistograms.Create();
        foreach (var histogram in paths.SelectMany(HistogramLog.Read))
        {
            merged.Add(histogram);
        }

        merged.TotalCount.ShouldBe(15_000);
        merged.GetMaxValue().ShouldBe(everything.GetMaxValue());
        merged.GetValueAtPercentile(99).ShouldBe(everything.GetValueAtPercentile(99));
        merged.GetMean().ShouldBe(everything.GetMean());
    }

    [Theory]
    [InlineData(50.0)]
    [InlineData(99.0)]
    [InlineData(99.9)]
    public void Recorded_latencies_read_back_in_milliseconds_within_a_tenth_of_a_percent(double percentile)
    {
        var random = new Random(42);
        var values = Enumerable.Range(0, 100_000)
            .Select(_ => TimeSpan.FromMicroseconds(Math.Exp(random.NextDouble() * random.NextDouble() * Math.Log(8_000_000)) + 50))
            .ToArray();
        var histogram = LatencyHistograms.Create();
        foreach (var value in values)
        {
            histogram.Record(value);
        }

        // HdrHistogram rounds the rank to the nearest count, so the answer is the value at that rank or a neighbour's.
        Array.Sort(values);
        var rank = (int)Math.Round(percentile / 100 * values.Length) - 1;
        var measured = histogram.MillisecondsAt(percentile);
        values[(rank - 1)..(rank + 2)].ShouldContain(exact => Math.Abs(measured - exact.TotalMilliseconds) <= exact.TotalMilliseconds * 0.001, $"p{percentile}: {measured} ms");
        histogram.MaxMilliseconds().ShouldBe(values[^1].TotalMilliseconds, values[^1].TotalMilliseconds * 0.001);
    }

    [Fact]
    public void A_latency_beyond_an_hour_is_clamped_to_the_highest_trackable_value_instead_of_failing_the_run()
    {
        var histogram = LatencyHistograms.Create();

        histogram.Record(TimeSpan.FromHours(5));

        histogram.TotalCount.ShouldBe(1);
        histogram.MaxMilliseconds().ShouldBe(3_600_000, 36_000); // HdrHistogram.NET reads the top bucket back ~0.2% low
    }

    [Fact]
    public void Copies_recording_at_once_lose_no_counts()
    {
        var histogram = LatencyHistograms.Create();

        Parallel.For(0, 8, _ =>
        {
            for (var i = 0; i < 50_000; i++)
            {
                histogram.Record(TimeSpan.FromMicroseconds(1_000 + (i % 5_000)));
            }
        });

        histogram.TotalCount.ShouldBe(400_000);
    }

    [Fact]
    public void An_empty_histogram_reports_zero()
    {
        var histogram = LatencyHistograms.Create();

        histogram.MillisecondsAt(99).ShouldBe(0);
        histogram.MeanMilliseconds().ShouldBe(0);
        histogram.MaxMilliseconds().ShouldBe(0);
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    private static HistogramBase Recorded(TimeSpan low, TimeSpan high, int count, int seed)
    {
        var random = new Random(seed);
        var histogram = LatencyHistograms.Create();
        for (var i = 0; i < count; i++)
        {
            histogram.Record(low + ((high - low) * random.NextDouble()));
        }

        return histogram;
    }

    private static void Stamp(HistogramBase histogram, string tag, DateTimeOffset start, TimeSpan length)
    {
        histogram.Tag = tag;
        histogram.StartTimeStamp = start.ToUnixTimeMilliseconds();
        histogram.EndTimeStamp = (start + length).ToUnixTimeMilliseconds();
    }
}
