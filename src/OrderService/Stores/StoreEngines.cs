#if !NATIVE_AOT
using OrderService.Data.MongoDb;
using OrderService.Data.SqlServer;
#endif
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;

namespace OrderService.Stores;

internal static class StoreEngines
{
    public static IHostApplicationBuilder AddStoreEngines(this IHostApplicationBuilder builder)
    {
#if !NATIVE_AOT
        builder.Services.AddMongoDbOrderStore();
        builder.Services.AddSqlServerOrderStore();
#endif
        builder.Services.AddPostgreSqlOrderStore();
        builder.Services.AddSqliteOrderStore();
        return builder;
    }

    public static IServiceCollection AddStoreEngineTelemetry(this IServiceCollection services)
    {
#if !NATIVE_AOT
        services.AddSqlServerStoreTelemetry();
#endif
        return services.AddPostgreSqlStoreTelemetry();
    }
}
