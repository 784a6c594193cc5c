using System.Collections.Concurrent;
using HdrHistogram;

namespace OrderService.Load.Driver;

/// <summary>One step's numbers: latency of successful calls, latency of failed calls, errors by key.</summary>
public sealed class StepStats(string name)
{
    private long _ok;
    private long _failed;

    public string Name { get; } = name;

    /// <summary>Latency of successful calls, in nanoseconds (see <see cref="LatencyHistograms"/>).</summary>
    public HistogramBase Latency { get; } = LatencyHistograms.Create();

    public HistogramBase FailedLatency { get; } = LatencyHistograms.Create();

    /// <summary>Errors by status code ("409") or exception type ("HttpRequestException").</summary>
    public ConcurrentDictionary<string, long> Errors { get; } = new();

    /// <summary>The first message seen for each error key, so a report can say what went wrong, not only how often.</summary>
    public ConcurrentDictionary<string, string> ErrorSamples { get; } = new();

    public long Ok => Interlocked.Read(ref _ok);

    public long Failed => Interlocked.Read(ref _failed);

    public void Record(Response response, TimeSpan elapsed)
    {
        if (response.IsOk)
        {
            Interlocked.Increment(ref _ok);
            Latency.Record(elapsed);
            return;
        }

        Interlocked.Increment(ref _failed);
        FailedLatency.Record(elapsed);
        Errors.AddOrUpdate(response.ErrorKey, 1, (_, count) => count + 1);
        if (response.Message is not null)
        {
            ErrorSamples.TryAdd(response.ErrorKey, response.Message);
        }
    }
}

/// <summary>A scenario's numbers: iterations done and failed, and its steps in first-seen order.</summary>
public sealed class ScenarioStats(string name)
{
    private readonly ConcurrentDictionary<string, StepStats> _steps = new();
    private readonly List<StepStats> _order = [];
    private long _ok;
    private long _failed;

    public string Name { get; } = name;

    public long OkIterations => Interlocked.Read(ref _ok);

    public long FailedIterations => Interlocked.Read(ref _failed);

    public long Iterations => OkIterations + FailedIterations;

    /// <summary>When the scenario's copies started (the histogram log's interval start).</summary>
    public DateTimeOffset StartedAt { get; internal set; }

    public TimeSpan Elapsed { get; internal set; }

    /// <summary>Errors of whole iterations, by the key of the response that ended them.</summary>
    public ConcurrentDictionary<string, long> IterationErrors { get; } = new();

    public IReadOnlyList<StepStats> Steps
    {
        get
        {
            lock (_order)
            {
                return [.. _order];
            }
        }
    }

    public StepStats Step(string name)
    {
        if (_steps.TryGetValue(name, out var stats))
        {
            return stats;
        }

        // Locked so that two copies meeting a new step at once register it once, in first-seen order.
        lock (_order)
        {
            if (!_steps.TryGetValue(name, out stats))
            {
                stats = new StepStats(name);
                _steps[name] = stats;
                _order.Add(stats);
            }

            return stats;
        }
    }

    internal void RecordIteration(Response response)
    {
        if (response.IsOk)
        {
            Interlocked.Increment(ref _ok);
            return;
        }

        Interlocked.Increment(ref _failed);
        IterationErrors.AddOrUpdate(response.ErrorKey, 1, (_, count) => count + 1);
    }
}
