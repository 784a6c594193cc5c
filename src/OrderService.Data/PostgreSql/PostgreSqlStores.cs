using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

/// <summary>Builds the PostgreSql store for the configured layout and switches.</summary>
public static class PostgreSqlStores
{
    public static StoreBundle Create(StoreContext context)
    {
        var options = context.Options;
        var logger = (context.Services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance).CreateLogger(typeof(PostgreSqlStores));
        if (options.ReadIsolation == ReadIsolation.ReadUncommitted)
        {
            // Honest about the switch: PostgreSQL has no dirty reads, so nothing changes on the wire.
            logger.LogWarning("Store:ReadIsolation=ReadUncommitted on PostgreSQL behaves as READ COMMITTED: PostgreSQL never reads uncommitted rows.");
        }

        if (options.Layout == StoreLayout.Document)
        {
            return Document.DocumentStores.CreatePostgres(context);
        }

        var database = new PostgresDatabase(context.ConnectionString, options, logger);
        var store = new RelationalOrderStore(new PostgreSqlDialect(options.ReadIsolation), new PostgresConnections(database), options);
        return new StoreBundle(store, new PostgresSchema(database), new PostgresTransientFaults(), database);
    }
}
