using OrderService.Data.MongoDb;

namespace OrderService.Stores;

/// <summary>The store engines this build ships, each from its own project; Store:Provider picks one at start-up (StoreRegistration).</summary>
internal static class StoreEngines
{
    public static IHostApplicationBuilder AddStoreEngines(this IHostApplicationBuilder builder)
    {
        builder.Services.AddMongoDbOrderStore();
        return builder;
    }
}
