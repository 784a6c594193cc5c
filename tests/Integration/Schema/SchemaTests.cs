using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Schema;

/// <summary>The versioned scripts apply once, whether one process starts or several start at once.</summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class SchemaTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task Schema_scripts_apply_once_when_several_stores_start_together(Engine engine)
    {
        var database = await stores.NewDatabaseAsync(engine);
        var opening = Enumerable.Range(0, 4).Select(_ => Task.Run(() => stores.OpenAsync(engine, connectionString: database), Ct)).ToArray();
        var opened = await Task.WhenAll(opening);
        try
        {
            await opened[0].Bundle.Schema.EnsureCreatedAsync(Ct);
            var versions = await opened[0].QueryAsync<long>("SELECT version FROM schema_versions ORDER BY version");
            versions.ShouldNotBeEmpty();
            versions.ShouldBe(versions.Distinct());
            versions[0].ShouldBe(1);
            (await opened[0].CreateOrderAsync()).ShouldNotBeNull();
        }
        finally
        {
            foreach (var store in opened)
            {
                await store.DisposeAsync();
            }
        }
    }
}
