using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderService.Data.Hosting;

namespace OrderService.Data.MongoDb;

/// <summary>Offers the MongoDB store to the host; it is built only when Store:Provider=MongoDb.</summary>
public static class MongoRegistration
{
    public static IServiceCollection AddMongoDbOrderStore(this IServiceCollection services) => services
        .AddSingleton<IValidateOptions<StoreOptions>>(static container =>
            new MongoUrlValidator(container.GetRequiredService<IConfiguration>()))
        .AddSettings<MongoStoreOptions>(MongoStoreOptions.SectionName, static (c, o) => c.Bind(o),
            new MongoStoreOptionsAnnotations())
        .AddSingleton<IValidateOptions<MongoStoreOptions>, MongoStoreOptionsValidator>()
        .AddSingleton(new StoreEngine(StoreProvider.MongoDb, MongoStores.Create));
}
