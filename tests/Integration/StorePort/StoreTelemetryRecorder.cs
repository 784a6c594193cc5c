using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using OrderService.Data;

namespace OrderService.Integration.Tests.StorePort;

/// <summary>
/// Listens to what the stores report (StoreTelemetry): every command with its SQL text and isolation,
/// and every connection opened. It sees the whole process, which is why these tests run alone.
/// </summary>
public sealed class StoreTelemetryRecorder : IDisposable
{
    private readonly ActivityListener _activities;
    private readonly MeterListener _meters = new();
    private readonly ConcurrentQueue<SentCommand> _commands = new();
    private long _connectionsOpened;

    public StoreTelemetryRecorder()
    {
        _activities = new ActivityListener
        {
            ShouldListenTo = source => source.Name == StoreTelemetry.Name,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity => _commands.Enqueue(new SentCommand(
                activity.OperationName,
                activity.GetTagItem("db.statement") as string ?? "",
                activity.GetTagItem("db.isolation") as string ?? "")),
        };
        ActivitySource.AddActivityListener(_activities);

        _meters.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == StoreTelemetry.Name && instrument.Name == "orderservice.store.connections.opened")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _meters.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref _connectionsOpened, value));
        _meters.Start();
    }

    public IReadOnlyList<SentCommand> Commands => [.. _commands];

    public long ConnectionsOpened => Interlocked.Read(ref _connectionsOpened);

    public void Reset()
    {
        _commands.Clear();
        Interlocked.Exchange(ref _connectionsOpened, 0);
    }

    public void Dispose()
    {
        _activities.Dispose();
        _meters.Dispose();
    }
}

public sealed record SentCommand(string Operation, string Sql, string Isolation);
