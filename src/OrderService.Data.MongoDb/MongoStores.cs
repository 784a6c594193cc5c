using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using MongoDB.Driver;
using OrderService.Data.Hosting;
using OrderService.Data.Resilience;

namespace OrderService.Data.MongoDb;

public static class MongoStores
{
    public static StoreBundle Create(StoreContext context)
    {
        var options = context.Options;
        var resilience = context.Settings<ResilienceOptions>();
        var logger = (context.Services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance)
            .CreateLogger(typeof(MongoStores));
        var settings = MongoSettings.Build(context.ConnectionString, context.Settings<MongoStoreOptions>(), resilience);
        settings.Client.ClusterConfigurator = new MongoCommandTelemetry().Subscribe;

        if (logger.IsEnabled(LogLevel.Information))
        {
            logger.LogInformation("MongoDB store (one document per order: Store:Layout is not used): {Settings}; " +
                "unit of work {UnitOfWork}{Sessions}; batch filter {BatchFilter}.",
                settings.Describe(), options.UnitOfWork, Sessions(options, settings), options.BatchFilter);
        }

        foreach (var warning in NoOpSwitches(options).Concat(StaleReads(settings)))
        {
            logger.LogWarning("{Warning}", warning);
        }

        var client = new MongoClient(settings.Client);
        var store = new MongoOrderStore(client, settings, options);
        return new StoreBundle(
            settings.Client.ReadPreference.ReadPreferenceMode == ReadPreferenceMode.Primary
                ? store
                : new StandbyReadsOrderStore(new MongoOrderStore(client, settings, options, primaryReads: true), store),
            new MongoSchema(store.Orders),
            MongoTransientFaults.Instance,
            new ClientRelease(client));
    }

    private static string Sessions(StoreOptions options, MongoSettings settings) =>
        options.UnitOfWork != UnitOfWork.PerRequest
        ? " (the driver's implicit session per command)"
        : settings.CausalSessions
            ? " (one causally consistent session per request)"
            : " (one session per request, not causally consistent: MongoDB does not allow it with read concern " +
                "available)";

    /// <summary>The general switches that have no counterpart on MongoDB, each said once at start-up.</summary>
    public static IEnumerable<string> NoOpSwitches(StoreOptions options)
    {
        if (options.WriteIsolation != WriteIsolation.ReadCommitted)
        {
            yield return $"Store:WriteIsolation={options.WriteIsolation} changes nothing on MongoDB: a transition is " +
                "one single-document write, atomic on its own.";
        }

        if (options.ReadIsolation == ReadIsolation.ReadUncommitted)
        {
            yield return "Store:ReadIsolation=ReadUncommitted changes nothing on MongoDB: no read ever sees another " +
                "session's uncommitted transaction. " +
                "Whether a read may return writes a failover can still roll back is the read concern " +
                "(Store:MongoDb:ReadConcern: Local/Available may, Majority never).";
        }
    }

    /// <summary>Read settings under which a read may miss what the same client was just told was written.</summary>
    public static IEnumerable<string> StaleReads(MongoSettings settings)
    {
        var client = settings.Client;
        if (client.ReadConcern.Level == ReadConcernLevel.Majority
            && client.WriteConcern.W is not WriteConcern.WMode { Value: "majority" })
        {
            yield return "Store:MongoDb:ReadConcern=Majority without W=majority: a read can miss a write " +
                "acknowledged a moment earlier (w:1 is acknowledged before a majority has it), " +
                "so a GET right after a 201 or 200 may answer 404 or an older version. Use W=majority with majority " +
                "reads.";
        }

        if (client.ReadPreference.ReadPreferenceMode != ReadPreferenceMode.Primary)
        {
            yield return $"Store:MongoDb:ReadPreference={client.ReadPreference.ReadPreferenceMode}: reads that go to " +
                $"a secondary can return an order older than what the client was just told, " +
                "and a listing can miss the newest orders (a GET or batch id the secondary does not have yet is " +
                "re-read on the primary).";
        }
    }

    private sealed class ClientRelease(MongoClient client) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            client.Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
