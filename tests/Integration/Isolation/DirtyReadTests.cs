using Microsoft.Data.Sqlite;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Isolation;

/// <summary>
/// Store:ReadIsolation=ReadUncommitted is the seed's NOLOCK: on SQLite a reader really sees another connection's
/// uncommitted write (a pay held on a connection of the test's own, in the same process and shared cache, then
/// rolled back). By default, and always on PostgreSQL, it does not.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class DirtyReadTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite, ReadIsolation.ReadUncommitted, OrderStatus.Paid)]
    [StoreData(Engine.Sqlite, ReadIsolation.ReadCommitted, OrderStatus.Created)]
    [StoreData(Engine.PostgreSql, ReadIsolation.ReadUncommitted, OrderStatus.Created)]
    [StoreData(Engine.PostgreSql, ReadIsolation.ReadCommitted, OrderStatus.Created)]
    public async Task A_read_during_an_uncommitted_payment_sees(Engine engine, ReadIsolation isolation,
        OrderStatus seen)
    {
        await using var store = await stores.OpenAsync(engine, o => o.ReadIsolation = isolation);
        var order = await store.CreateOrderAsync();
        await using var writer = engine == Engine.Sqlite
            ? await OpenSharedCacheAsync(store.ConnectionString)
            : await store.OpenDirectAsync();
        Order? during = null;

        var held = await HeldPay.HoldAsync(writer, store.Id(order.Id),
            async () => during = await store.Store.GetAsync(order.Id, Ct), Ct);

        held.ShouldBeTrue();
        during!.Status.ShouldBe(seen);
        var after = await store.Store.GetAsync(order.Id, Ct);
        after!.Status.ShouldBe(OrderStatus.Created);
        after.Version.ShouldBe(1);
        after.Events.Count.ShouldBe(1);
    }

    private static async Task<SqliteConnection> OpenSharedCacheAsync(string connectionString)
    {
        var shared = new SqliteConnectionStringBuilder(connectionString) { Cache = SqliteCacheMode.Shared };
        var connection = new SqliteConnection(shared.ConnectionString);
        await connection.OpenAsync(Ct);
        return connection;
    }
}
