using OrderService.Data.MongoDb;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Data.SqlServer;

namespace OrderService.Stores;

/// <summary>The store engines this build ships, each from its own project; Store:Provider picks one at start-up (StoreRegistration).</summary>
internal static class StoreEngines
{
    public static IHostApplicationBuilder AddStoreEngines(this IHostApplicationBuilder builder)
    {
        builder.Services.AddMongoDbOrderStore();
        builder.Services.AddPostgreSqlOrderStore();
        builder.Services.AddSqliteOrderStore();
        builder.Services.AddSqlServerOrderStore();
        return builder;
    }
}
