using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OrderService.Data;

namespace OrderService.Load.Shootout;

/// <summary>
/// The store port built exactly as the service builds it (StoreRegistration.AddOrderStore with the
/// variant's configuration), for the raw baseline and the audit: no HTTP, same store code.
/// </summary>
public sealed class StoreClient : IAsyncDisposable
{
    private readonly ServiceProvider _services;

    private StoreClient(ServiceProvider services)
    {
        _services = services;
        Store = services.GetRequiredService<IOrderStore>();
    }

    public IOrderStore Store { get; }

    public static async Task<StoreClient> OpenAsync(Variant variant, string connectionString, CancellationToken cancellationToken)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(variant.Configuration(connectionString).Select(p => new KeyValuePair<string, string?>(p.Key, p.Value)))
            .Build();
        var services = new ServiceCollection()
            .AddSingleton<IConfiguration>(configuration)
            .AddLogging()
            .AddOrderStore(configuration)
            .BuildServiceProvider(new ServiceProviderOptions { ValidateOnBuild = false });
        var client = new StoreClient(services);
        try
        {
            await services.GetRequiredService<IStoreSchema>().EnsureCreatedAsync(cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await client.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        return client;
    }

    public ValueTask DisposeAsync() => _services.DisposeAsync();
}
