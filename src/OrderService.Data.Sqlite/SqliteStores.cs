using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using OrderService.Data.Document;
using OrderService.Data.Hosting;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

public static class SqliteStores
{
    public static StoreBundle Create(StoreContext context)
    {
        var options = context.Options;
        var sqlite = context.Settings<SqliteStoreOptions>();
        var database = new SqliteDatabase(context.ConnectionString, options, sqlite);
        IOrderStore store = options.Layout == StoreLayout.Document
            ? new DocumentOrderStore(new SqliteDocumentDialect(), new SqliteConnections(database), options)
            : new RelationalOrderStore(new SqliteDialect(), new SqliteConnections(database),
                options);
        var logger = (context.Services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance)
            .CreateLogger(typeof(SqliteStores));
        if (options is { Layout: StoreLayout.Relational, WriteIsolation: not WriteIsolation.ReadCommitted }
            && logger.IsEnabled(LogLevel.Information))
        {
            logger.LogInformation(
                "Store:WriteIsolation={Isolation} on SQLite: every SQLite write is serialized (one writer, " +
                "serializable transactions), so this level changes nothing.",
                options.WriteIsolation);
        }

        return new StoreBundle(store, new SqliteSchema(database, options.Layout), new SqliteTransientFaults(),
            database);
    }
}
