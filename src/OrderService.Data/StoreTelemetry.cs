using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace OrderService.Data;

/// <summary>
/// What the stores emit: an Activity per command (SQL text, isolation, unit of work) and counters for
/// connections opened and commands sent. OpenTelemetry exports them; tests listen to them to see
/// that a switch really changes what reaches the database.
/// </summary>
public static class StoreTelemetry
{
    public const string Name = "OrderService.Store";

    public static readonly ActivitySource ActivitySource = new(Name);
    public static readonly Meter Meter = new(Name);

    private static readonly Counter<long> ConnectionsOpened = Meter.CreateCounter<long>("orderservice.store.connections.opened");
    private static readonly Counter<long> CommandsSent = Meter.CreateCounter<long>("orderservice.store.commands.sent");
    private static readonly Counter<long> GroupCommits = Meter.CreateCounter<long>("orderservice.store.group_commits");
    private static readonly Histogram<long> GroupCommitSize = Meter.CreateHistogram<long>("orderservice.store.group_commit.size");

    public static void ConnectionOpened(string provider, string purpose) =>
        ConnectionsOpened.Add(1, new KeyValuePair<string, object?>("db.system", provider), new KeyValuePair<string, object?>("purpose", purpose));

    /// <summary>Starts an activity for one command (null when nobody listens, which costs nothing).</summary>
    public static Activity? Command(string provider, string operation, string sql, string isolation)
    {
        CommandsSent.Add(1, new KeyValuePair<string, object?>("db.system", provider), new KeyValuePair<string, object?>("db.operation", operation));
        var activity = ActivitySource.StartActivity(operation, ActivityKind.Client);
        if (activity is not null)
        {
            activity.SetTag("db.system", provider);
            activity.SetTag("db.statement", sql);
            activity.SetTag("db.isolation", isolation);
        }

        return activity;
    }

    public static void GroupCommitted(int size)
    {
        GroupCommits.Add(1);
        GroupCommitSize.Record(size);
    }
}
