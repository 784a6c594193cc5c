using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using OrderService.Data.Orders;

namespace OrderService.Data;

/// <summary>What the stores emit that no library does.</summary>
public static class StoreTelemetry
{
    public const string Name = "OrderService.Store";

    public static readonly ActivitySource ActivitySource = new(Name);
    public static readonly Meter Meter = new(Name);

    private static readonly Counter<long> ConnectionsOpened =
        Meter.CreateCounter<long>("orderservice.store.connections.opened");
    private static readonly Counter<long> GroupCommits = Meter.CreateCounter<long>("orderservice.store.group_commits");
    private static readonly Histogram<long> GroupCommitSize =
        Meter.CreateHistogram<long>("orderservice.store.group_commit.size");

    private static readonly Histogram<double> CallDuration = Meter.CreateHistogram(
        "orderservice.store.call.duration", "s",
            "One store port call as the caller sees it: retries and backoff included.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries =
            [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] });

    private static readonly Counter<long> Transitions = Meter.CreateCounter<long>(
        "orderservice.transitions",
            description: "Transitions asked of the store, by action and outcome (unavailable: the store could not " +
                "answer).");

    private static readonly Counter<long> Retries = Meter.CreateCounter<long>(
        "orderservice.store.retries",
            description: "Store calls rerun after a transient fault, by what the fault left behind.");

    private static readonly ConcurrentDictionary<object, (string System, Func<int> State)> Circuits = new();

    // Observed only when a reader collects: it costs nothing in between.
    private static readonly ObservableGauge<int> CircuitState = Meter.CreateObservableGauge(
        "orderservice.store.circuit.state", ObserveCircuits,
            description: "The store's circuit breaker: 0 closed, 1 open, 2 half-open, 3 isolated.");

    /// <summary>The db.system value (OpenTelemetry's names) of a provider.</summary>
    public static string SystemName(StoreProvider provider) => provider switch
    {
        StoreProvider.Sqlite => "sqlite",
        StoreProvider.PostgreSql => "postgresql",
        StoreProvider.SqlServer => "mssql",
        _ => provider.ToString().ToLowerInvariant(),
    };

    public static void ConnectionOpened(string provider, string purpose) =>
        ConnectionsOpened.Add(1, new KeyValuePair<string, object?>("db.system", provider), new KeyValuePair<string,
            object?>("purpose", purpose));

    /// <summary>Starts an activity for one command (null when nobody listens, which costs nothing).</summary>
    public static Activity? Command(string provider, string operation, string sql, string isolation)
    {
        var activity = ActivitySource.StartActivity(operation, ActivityKind.Client);
        if (activity is not null)
        {
            activity.SetTag("db.system", provider);
            activity.SetTag("db.statement", sql);
            activity.SetTag("db.isolation", isolation);
        }

        return activity;
    }

    /// <summary>Starts one store call: a span named after the operation and its duration.</summary>
    internal static StoreCall? Call(string provider, string operation)
    {
        var activity = ActivitySource.StartActivity(operation, ActivityKind.Internal);
        if (activity is null && !CallDuration.Enabled)
        {
            return null;
        }

        activity?.SetTag("db.system", provider);
        activity?.SetTag("db.operation.name", operation);
        return new StoreCall(provider, operation, activity);
    }

    public static void Transition(string provider, OrderAction action, string outcome) =>
        Transitions.Add(1,
            new KeyValuePair<string, object?>("db.system", provider),
            new KeyValuePair<string, object?>("order.action", ActionName(action)),
            new KeyValuePair<string, object?>("order.transition.outcome", outcome));

    /// <param name="fault">What the fault left behind (rolled_back, unreachable, interrupted, timeout).</param>
    public static void Retried(string provider, string operation, string fault, string errorType) =>
        Retries.Add(1,
            new KeyValuePair<string, object?>("db.system", provider),
            new KeyValuePair<string, object?>("db.operation.name", operation),
            new KeyValuePair<string, object?>("orderservice.store.fault", fault),
            new KeyValuePair<string, object?>("error.type", errorType));

    /// <summary>Reports a circuit's state until the returned handle is disposed.</summary>
    public static IDisposable ObserveCircuit(string provider, Func<int> state)
    {
        var handle = new CircuitHandle();
        Circuits[handle] = (provider, state);
        return handle;
    }

    public static void GroupCommitted(string provider, int size)
    {
        var system = new KeyValuePair<string, object?>("db.system", provider);
        GroupCommits.Add(1, system);
        GroupCommitSize.Record(size, system);
    }

    private static IEnumerable<Measurement<int>> ObserveCircuits() =>
        Circuits.Values.Select(static circuit =>
            new Measurement<int>(circuit.State(), new KeyValuePair<string, object?>("db.system", circuit.System)));

    // Enum.ToString allocates; these are the wire names of the actions.
    private static string ActionName(OrderAction action) => action switch
    {
        OrderAction.Pay => "pay",
        OrderAction.Ship => "ship",
        OrderAction.Complete => "complete",
        OrderAction.Cancel => "cancel",
        _ => action.ToString().ToLowerInvariant(),
    };

    internal sealed class StoreCall(string provider, string operation, Activity? activity) : IDisposable
    {
        private readonly long _started = Stopwatch.GetTimestamp();
        private string? _errorType;

        /// <summary>The call failed; <paramref name="errorType"/> becomes error.type.</summary>
        public void Fail(string errorType, string description)
        {
            _errorType = errorType;
            activity?.SetStatus(ActivityStatusCode.Error, description);
            activity?.SetTag("error.type", errorType);
        }

        public void Dispose()
        {
            activity?.Dispose();
            if (CallDuration.Enabled)
            {
                var tags = new TagList
                {
                    { "db.system", provider },
                    { "db.operation.name", operation },
                };
                if (_errorType is not null)
                {
                    tags.Add("error.type", _errorType);
                }

                CallDuration.Record(Stopwatch.GetElapsedTime(_started).TotalSeconds, tags);
            }
        }
    }

    private sealed class CircuitHandle : IDisposable
    {
        public void Dispose() => Circuits.TryRemove(this, out _);
    }
}
