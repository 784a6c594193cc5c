using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderService.Data.Hosting;

namespace OrderService.Data.MongoDb;

/// <summary>Offers the MongoDB store to the host; it is built only when Store:Provider=MongoDb.</summary>
public static class MongoRegistration
{
    public static IServiceCollection AddMongoDbOrderStore(this IServiceCollection services)
    {
        // Parsed at start-up, as other engines' drivers parse theirs.
        services.AddOptions<StoreOptions>().Validate<IConfiguration>(static (store, configuration) =>
                store.Provider != StoreProvider.MongoDb
                || configuration.GetConnectionString(StoreRegistration.ConnectionStringName) is not { Length: > 0 } uri
                || MongoSettings.ParseUrl(uri) is not null,
            $"Invalid setting ConnectionStrings:{StoreRegistration.ConnectionStringName} = (value hidden: it may " +
            $"hold a credential); allowed: {MongoSettings.UriForm}.");
        return services
            .AddSettings<MongoStoreOptions>(MongoStoreOptions.SectionName, static (c, o) => c.Bind(o),
                new MongoStoreOptionsAnnotations())
            .AddSingleton<IValidateOptions<MongoStoreOptions>, MongoStoreOptionsValidator>()
            .AddSingleton(new StoreEngine(StoreProvider.MongoDb, MongoStores.Create));
    }
}
