using System.Data.Common;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OrderService.Data.Hosting;

namespace OrderService.Data.Sqlite;

/// <summary>Offers the SQLite store to the host; it is built only when Store:Provider=Sqlite, the default.</summary>
public static class SqliteRegistration
{
    public static IServiceCollection AddSqliteOrderStore(this IServiceCollection services)
    {
        // The options are checked before the container exists, so the driver's parser is offered where the framework
        // keeps such parsers for code that does not reference the driver.
        DbProviderFactories.RegisterFactory(ConnectionStringValidator.DriverName(StoreProvider.Sqlite),
            SqliteFactory.Instance);
        return services
            .AddSettings<SqliteStoreOptions>(SqliteStoreOptions.SectionName, static (c, o) => c.Bind(o),
                new SqliteStoreOptionsValidator())
            .AddSingleton(new StoreEngine(StoreProvider.Sqlite, SqliteStores.Create));
    }
}
