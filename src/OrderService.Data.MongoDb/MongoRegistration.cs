using Microsoft.Extensions.DependencyInjection;

namespace OrderService.Data.MongoDb;

/// <summary>Offers the MongoDB store to the host; it is built only when Store:Provider=MongoDb (StoreRegistration).</summary>
public static class MongoRegistration
{
    public static IServiceCollection AddMongoDbOrderStore(this IServiceCollection services) =>
        services.AddSingleton(new StoreEngine(StoreProvider.MongoDb, MongoStores.Create));
}
