using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using MongoDB.Driver;
using OrderService.Data.Resilience;

namespace OrderService.Data.MongoDb;

/// <summary>
/// Builds the MongoDB store: settings from the connection string and the Store:MongoDb keys (<see cref="MongoSettings"/>),
/// one MongoClient (its pool is the store's), command telemetry, the index "schema" and the transient-fault rules. Logs
/// the switches in force at start-up, and says which general switches mean nothing on MongoDB.
/// </summary>
public static class MongoStores
{
    public static StoreBundle Create(StoreContext context)
    {
        var options = context.Options;
        var resilience = context.Services.GetService<IOptions<ResilienceOptions>>()?.Value ?? new ResilienceOptions();
        var logger = (context.Services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance).CreateLogger(typeof(MongoStores));
        var settings = MongoSettings.Build(context.ConnectionString, options.MongoDb, resilience);
        settings.Client.ClusterConfigurator = new MongoCommandTelemetry().Subscribe;

        if (logger.IsEnabled(LogLevel.Information))
        {
            logger.LogInformation("MongoDB store (one document per order: Store:Layout is not used): {Settings}; unit of work {UnitOfWork}; batch filter {BatchFilter}.",
                settings.Describe(), options.UnitOfWork, options.BatchFilter);
        }

        foreach (var warning in NoOpSwitches(options))
        {
            logger.LogWarning("{Warning}", warning);
        }

        var client = new MongoClient(settings.Client);
        var store = new MongoOrderStore(client, settings, options);
        return new StoreBundle(store, new MongoSchema(store.Orders), MongoTransientFaults.Instance, new ClientRelease(client));
    }

    /// <summary>The general switches that have no counterpart on MongoDB, each said once at start-up (README: MongoDB).</summary>
    public static IEnumerable<string> NoOpSwitches(StoreOptions options)
    {
        if (options.WriteIsolation != WriteIsolation.ReadCommitted)
        {
            yield return $"Store:WriteIsolation={options.WriteIsolation} changes nothing on MongoDB: a transition is one single-document write, atomic on its own, " +
                "and the declined-payment probe's transaction always runs at MongoDB's snapshot isolation.";
        }

        if (options.ReadIsolation == ReadIsolation.ReadUncommitted)
        {
            yield return "Store:ReadIsolation=ReadUncommitted changes nothing on MongoDB: no read ever sees another session's uncommitted transaction. " +
                "Whether a read may return writes a failover can still roll back is the read concern (Store:MongoDb:ReadConcern: Local/Available may, Majority never).";
        }
    }

    /// <summary>Closes the client's pool and monitors when the host stops (tests start many hosts in one process).</summary>
    private sealed class ClientRelease(MongoClient client) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            client.Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
