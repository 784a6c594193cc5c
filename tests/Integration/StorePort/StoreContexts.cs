using Microsoft.Extensions.DependencyInjection;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;

namespace OrderService.Integration.Tests.StorePort;

/// <summary>
/// A store's context in a container of its own that holds what the engines build there (PostgreSQL's data sources), as
/// the service's holds them: for the tests that open a store, or an engine's pool, straight through its factory.
/// </summary>
internal static class StoreContexts
{
    public static StoreContext For(StoreOptions options, string connectionString,
        Action<SqliteStoreOptions>? sqlite = null, Action<PostgreSqlStoreOptions>? postgres = null)
    {
        var services = new ServiceCollection().AddLogging().AddSqliteOrderStore().AddPostgreSqlOrderStore()
            .Configure<SqliteStoreOptions>(o => sqlite?.Invoke(o))
            .Configure<PostgreSqlStoreOptions>(o => postgres?.Invoke(o));
        return services.AddSingleton(container => new StoreContext(options, connectionString, container))
            .BuildServiceProvider().GetRequiredService<StoreContext>();
    }

    /// <summary>The PostgreSQL store's pool on <paramref name="connectionString"/>, tuned by <paramref name="options"/> as the store's is.</summary>
    public static PostgresDatabase PostgresDatabase(string connectionString, StoreOptions options,
        Action<PostgreSqlStoreOptions>? postgres = null) =>
        PostgreSqlStores.Database(For(options, connectionString, postgres: postgres));
}
