using OrderService.Load.Driver;

namespace OrderService.Load.Shootout;

/// <summary>Where a shoot-out run keeps its latency histograms: one HdrHistogram log per run, beside the report.</summary>
public static class RunHistograms
{
    /// <summary>
    /// The run's per-step latency histograms (successful and failed calls, HTTP and raw) as one HdrHistogram log
    /// beside the report, tagged key/scenario/step/ok|failed, so other HdrHistogram tools can read and merge them.
    /// </summary>
    public static async Task<string> WriteAsync(string outputDirectory, string runName, string key, IReadOnlyList<ScenarioStats> http, ScenarioStats? raw)
    {
        var directory = Path.Combine(outputDirectory, "histograms");
        Directory.CreateDirectory(directory);
        var scenarios = raw is null ? http : [.. http, raw];
        var histograms = new List<HdrHistogram.HistogramBase>();
        foreach (var scenario in scenarios)
        {
            var start = scenario.StartedAt.ToUnixTimeMilliseconds();
            var end = (scenario.StartedAt + scenario.Elapsed).ToUnixTimeMilliseconds();
            foreach (var step in scenario.Steps)
            {
                foreach (var (outcome, histogram) in new[] { ("ok", step.Latency), ("failed", step.FailedLatency) })
                {
                    var copy = histogram.Copy();
                    copy.Tag = HistogramLog.Tag(key, scenario.Name, step.Name, outcome);
                    copy.StartTimeStamp = start;
                    copy.EndTimeStamp = end;
                    histograms.Add(copy);
                }
            }
        }

        var file = Path.Combine(directory, $"{runName}.hlog");
        await HistogramLog.WriteAsync(file, scenarios.Min(s => s.StartedAt), histograms).ConfigureAwait(false);
        return Path.GetRelativePath(outputDirectory, file);
    }
}
