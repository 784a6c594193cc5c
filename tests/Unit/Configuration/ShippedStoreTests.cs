using OrderService.Data;
using OrderService.Data.Hosting;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Configuration;

/// <summary>Store:Provider against the stores a build ships: all four in the regular build, two in a Native AOT build.</summary>
public sealed class ShippedStoreTests
{
    private static readonly StoreEngine[] NativeAotEngines =
    [
        new(StoreProvider.PostgreSql, _ => throw new InvalidOperationException("not built here")),
        new(StoreProvider.Sqlite, _ => throw new InvalidOperationException("not built here")),
    ];

    [Theory]
    [InlineData(StoreProvider.Sqlite)]
    [InlineData(StoreProvider.PostgreSql)]
    public void A_store_the_build_ships_passes(StoreProvider provider) =>
        new ShippedStoreValidator(NativeAotEngines).Validate(null, new StoreOptions { Provider = provider }).Succeeded.ShouldBeTrue();

    [Theory]
    [InlineData(StoreProvider.SqlServer)]
    [InlineData(StoreProvider.MongoDb)]
    public void A_store_the_build_lacks_is_one_line_naming_the_stores_it_ships(StoreProvider provider)
    {
        var result = new ShippedStoreValidator(NativeAotEngines).Validate(null, new StoreOptions { Provider = provider });

        result.Failed.ShouldBeTrue();
        result.Failures!.ShouldBe([$"Invalid setting Store:Provider = \"{provider}\"; allowed: Sqlite, PostgreSql (the stores this build ships)."]);
    }
}
