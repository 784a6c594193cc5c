using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Npgsql;
using OrderService.Data.Document;
using OrderService.Data.Hosting;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

public static class PostgreSqlStores
{
    public static StoreBundle Create(StoreContext context)
    {
        var options = context.Options;
        var logger = (context.Services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance)
            .CreateLogger(typeof(PostgreSqlStores));
        if (options.ReadIsolation == ReadIsolation.ReadUncommitted)
        {
            // Honest about the switch: PostgreSQL has no dirty reads, so nothing changes on the wire.
            logger.LogWarning("Store:ReadIsolation=ReadUncommitted on PostgreSQL behaves as READ COMMITTED: " +
                "PostgreSQL never reads uncommitted rows.");
        }

        var postgres = context.Settings<PostgreSqlStoreOptions>();
        var database = Database(context, logger);
        var primary = new StoreBundle(Store(database, options, postgres), new PostgresSchema(database, options.Layout),
            new PostgresTransientFaults(), database, database);
        return string.IsNullOrWhiteSpace(postgres.ReadConnectionString)
            ? primary
            : WithStandbyReads(primary, database, context, postgres, logger);
    }

    internal static PostgresDatabase Database(StoreContext context, ILogger? logger = null) => new(
        context.Services.GetRequiredKeyedService<NpgsqlDataSource>(PostgreSqlRegistration.PrimaryDataSource),
            context.ConnectionString, context.Options, context.Settings<PostgreSqlStoreOptions>(), logger);

    private static StoreBundle WithStandbyReads(
        StoreBundle primary, PostgresDatabase primaryDatabase, StoreContext context, PostgreSqlStoreOptions postgres,
        ILogger logger)
    {
        var options = context.Options;
        var standby = new PostgresDatabase(
            context.Services.GetRequiredKeyedService<NpgsqlDataSource>(PostgreSqlRegistration.StandbyDataSource),
            postgres.ReadConnectionString!, options, postgres, logger, readsOnly: true);
        logger.LogInformation("Store:PostgreSql:ReadConnectionString is set: GET by id, the batch and the customer " +
            "listing read from the standby; writes stay on the primary.");
        var pools = new PrimaryAndStandbyPools(primaryDatabase, standby);
        return primary with { Store =
            new StandbyReadsOrderStore(primary.Store, Store(standby, options, postgres),
                PostgresTransientFaults.IsUndefinedTable, logger),
            Resources = pools, Pool = pools };
    }

    private static IOrderStore Store(
        PostgresDatabase database, StoreOptions options, PostgreSqlStoreOptions postgres) =>
        options.Layout == StoreLayout.Document
            ? new DocumentOrderStore(new PostgreSqlDocumentDialect(postgres.Distribution),
                new PostgresConnections(database), options)
            : new RelationalOrderStore(new PostgreSqlDialect(postgres.Distribution),
                new PostgresConnections(database), options);

    private sealed class PrimaryAndStandbyPools(PostgresDatabase primary, PostgresDatabase standby) : IAsyncDisposable,
        IConnectionPool
    {
        public void DropIdleConnections()
        {
            primary.DropIdleConnections();
            standby.DropIdleConnections();
        }

        public async ValueTask DisposeAsync()
        {
            await standby.DisposeAsync();
            await primary.DisposeAsync();
        }
    }
}
