using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderService.Data.Payments;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;

namespace OrderService.Data.Document;

/// <summary>
/// Builds the document layout per engine. The provider factories (PostgreSqlStores, SqliteStores) call
/// these for Store:Layout=Document; tests call them directly.
/// </summary>
public static class DocumentStores
{
    public static StoreBundle CreatePostgres(StoreContext context)
    {
        var logger = context.Services.GetService<ILoggerFactory>()?.CreateLogger(typeof(PostgreSqlStores));
        var database = new PostgresDatabase(context.ConnectionString, context.Options, logger);
        return new StoreBundle(
            new PostgreSql.DocumentOrderStore(database, context.Options, context.Payments()),
            new PostgreSql.DocumentSchema(database),
            new PostgresTransientFaults(),
            database);
    }

    public static StoreBundle CreateSqlite(StoreContext context)
    {
        var database = new SqliteDatabase(context.ConnectionString, context.Options);
        return new StoreBundle(
            new Sqlite.DocumentOrderStore(database, context.Options, context.Payments()),
            new Sqlite.DocumentSchema(database),
            new SqliteTransientFaults(),
            database);
    }
}
