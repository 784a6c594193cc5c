using System.Collections.Concurrent;
using System.Diagnostics;
using MongoDB.Bson;
using MongoDB.Driver.Core.Configuration;
using MongoDB.Driver.Core.Events;

namespace OrderService.Data.MongoDb;

/// <summary>The driver's command events feed the same spans and counters every store emits.</summary>
public sealed class MongoCommandTelemetry
{
    public const string Provider = "mongodb";

    private readonly ConcurrentDictionary<int, Activity> _open = new();

    public void Subscribe(ClusterBuilder cluster)
    {
        cluster.Subscribe<CommandStartedEvent>(Started);
        cluster.Subscribe<CommandSucceededEvent>(succeeded => Stop(succeeded.RequestId, null));
        cluster.Subscribe<CommandFailedEvent>(failed => Stop(failed.RequestId, failed.Failure));
        cluster.Subscribe<ConnectionOpenedEvent>(_ => StoreTelemetry.ConnectionOpened(Provider, "pool"));
    }

    private void Started(CommandStartedEvent started)
    {
        // Rendering the concerns costs a little: only when someone listens (StoreTelemetry still counts the command).
        var listening = StoreTelemetry.ActivitySource.HasListeners();
        var command = started.Command;
        var statement = command.TryGetValue(started.CommandName, out var target) && target.IsString
            ? $"{started.CommandName} {target.AsString}"
            : started.CommandName;
        var activity = StoreTelemetry.Command(Provider, started.CommandName, statement,
            listening ? Concerns(command) : "");
        if (activity is not null)
        {
            _open[started.RequestId] = activity;
        }
    }

    private void Stop(int requestId, Exception? failure)
    {
        if (!_open.TryRemove(requestId, out var activity))
        {
            return;
        }

        if (failure is not null)
        {
            activity.SetStatus(ActivityStatusCode.Error, failure.Message);
            activity.SetTag("error.type", failure.GetType().Name);
        }

        activity.Stop();
    }

    private static string Concerns(BsonDocument command)
    {
        var writeConcern = command.TryGetValue("writeConcern", out var w) ? w.ToString() : "-";
        var readConcern = command.TryGetValue("readConcern", out var r) ? r.ToString() : "-";
        return $"writeConcern={writeConcern} readConcern={readConcern}";
    }
}
