using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.MongoDb;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Data.SqlServer;

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

    /// <param name="engineSettings">The engine's own timeouts (Babelfish, FerretDB), as the service under test gets them.</param>
    public static async Task<StoreClient> OpenAsync(Variant variant, string connectionString, CancellationToken cancellationToken, IReadOnlyDictionary<string, string>? engineSettings = null)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection((engineSettings ?? new Dictionary<string, string>()).Select(p => new KeyValuePair<string, string?>(p.Key, p.Value)))
            .AddInMemoryCollection(variant.Configuration(connectionString).Select(p => new KeyValuePair<string, string?>(p.Key, p.Value)))
            .Build();
        var services = new ServiceCollection()
            .AddSingleton<IConfiguration>(configuration)
            .AddLogging()
            .AddOrderStore(configuration)
            .AddMongoDbOrderStore()
            .AddPostgreSqlOrderStore()
            .AddSqliteOrderStore()
            .AddSqlServerOrderStore()
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
