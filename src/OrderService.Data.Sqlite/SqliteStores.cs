using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using OrderService.Data.Document;
using OrderService.Data.Hosting;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

/// <summary>Builds the SQLite store for the configured layout and switches.</summary>
public static class SqliteStores
{
    public static StoreBundle Create(StoreContext context)
    {
        var options = context.Options;
        var sqlite = context.Settings<SqliteStoreOptions>();
        if (options.Layout == StoreLayout.Document)
        {
            var documents = new SqliteDatabase(context.ConnectionString, options, sqlite);
            var documentStore = new DocumentOrderStore(new SqliteDocumentDialect(), new SqliteConnections(documents),
                options);
            return new StoreBundle(documentStore, new SqliteSchema(documents, StoreLayout.Document),
                new SqliteTransientFaults(), documents);
        }

        var logger = (context.Services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance)
            .CreateLogger(typeof(SqliteStores));
        if (options.WriteIsolation != WriteIsolation.ReadCommitted && logger.IsEnabled(LogLevel.Information))
        {
            logger.LogInformation(
                "Store:WriteIsolation={Isolation} on SQLite: every SQLite write is serialized (one writer, " +
                "serializable transactions), so this level changes nothing.",
                options.WriteIsolation);
        }

        var database = new SqliteDatabase(context.ConnectionString, options, sqlite);
        var store = new RelationalOrderStore(new SqliteDialect(options.ReadIsolation), new SqliteConnections(database),
            options);
        return new StoreBundle(store, new SqliteSchema(database, StoreLayout.Relational), new SqliteTransientFaults(),
            database);
    }
}
