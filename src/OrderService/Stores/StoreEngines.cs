#if !NATIVE_AOT
using OrderService.Data.MongoDb;
using OrderService.Data.SqlServer;
#endif
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;

namespace OrderService.Stores;

/// <summary>The store engines this build ships, each from its own project.</summary>
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

    /// <summary>Each engine's driver instrumentation, described only when something exports.</summary>
    public static IServiceCollection AddStoreEngineTelemetry(this IServiceCollection services)
    {
#if !NATIVE_AOT
        services.AddSqlServerStoreTelemetry();
#endif
        return services.AddPostgreSqlStoreTelemetry();
    }
}
