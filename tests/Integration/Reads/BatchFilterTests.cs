using Dapper;
using Microsoft.Data.SqlClient;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.SqlServer;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Reads;

/// <summary>Json (one parameter) and InList (one parameter per id) return the same orders, in the same order.</summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class BatchFilterTests(RelationalStores stores)
{
    private const int Seeded = 10_000;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task Json_and_InList_return_identical_results_for_1_2100_and_10000_ids(Engine engine)
    {
        var database = await stores.NewDatabaseAsync(engine);
        await using var json = await stores.OpenAsync(engine, o => o.BatchFilter = BatchFilter.Json, database);
        await using var inList = await stores.OpenAsync(engine, o => o.BatchFilter = BatchFilter.InList, database);
        var existing = await SeedAsync(json, Seeded);
        var viaPort = await json.CreateOrderAsync();

        await AssertIdenticalAsync(json.Store, inList.Store, existing, viaPort.Id);
    }

    /// <summary>
    /// Batches of 1, 2,100 and 10,000 ids with misses and repeats: the same orders either way. The largest finds
    /// <paramref name="found"/> of <paramref name="existing"/> (at least 1,000 + found), the others at most 2,001.
    /// </summary>
    internal static async Task AssertIdenticalAsync(
        IOrderStore json, IOrderStore inList, Guid[] existing, Guid viaPort, int found = 9_000)
    {
        var repeats = Math.Min(500, found);
        var missing = NewIds(10_000 - found - repeats);
        var fromFirst = Math.Min(2_000, found);

        Guid[][] requests =
        [
            [viaPort],
            [.. existing.Take(fromFirst), .. missing.Take(2_099 - fromFirst), viaPort],
            [.. existing.Skip(1_000).Take(found), .. missing, .. existing.Skip(1_000).Take(repeats)],
        ];
        int[] expectedCounts = [1, fromFirst + 1, found];

        for (var i = 0; i < requests.Length; i++)
        {
            var fromJson = await json.GetManyAsync(requests[i], Ct).ToListAsync(Ct);
            var fromInList = await inList.GetManyAsync(requests[i], Ct).ToListAsync(Ct);

            fromJson.Count.ShouldBe(expectedCounts[i], $"request of {requests[i].Length} ids");
            fromInList.Select(o => o.Id).ShouldBe(fromJson.Select(o => o.Id), $"request of {requests[i].Length} ids");
            fromInList.ShouldBe(fromJson, new OrderComparer());
        }
    }

    /// <summary>Orders inserted straight into the tables, in the stores' format: creating 10,000 through the port would only slow the test.</summary>
    private static async Task<Guid[]> SeedAsync(OpenStore store, int count)
    {
        var ids = NewIds(count);
        if (store.Engine == Engine.PostgreSql)
        {
            await store.ExecuteAsync("""
                INSERT INTO customers VALUES ('batch', now());
                INSERT INTO orders SELECT id, 'batch', 'Created', 2.50, 1, now(), now() FROM unnest(@Ids) id;
                INSERT INTO order_lines SELECT id, 1, 'SKU-B', 2, 1.25 FROM unnest(@Ids) id;
                INSERT INTO order_events SELECT id, 1, 'Created', now(), '{"total":2.50}' FROM unnest(@Ids) id;
                """, new { Ids = ids });
        }
        else
        {
            await store.ExecuteAsync("""
                BEGIN;
                INSERT INTO customers VALUES ('batch', '2025-01-01T00:00:00.000000Z');
                INSERT INTO orders SELECT value, 'batch', 'Created', 2.50, 1, '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z' FROM json_each(@Ids);
                INSERT INTO order_lines SELECT value, 1, 'SKU-B', 2, 1.25 FROM json_each(@Ids);
                INSERT INTO order_events SELECT value, 1, 'Created', '2025-01-01T00:00:00.000000Z', '{"total":2.50}' FROM json_each(@Ids);
                COMMIT;
                """, new { Ids = IdsJson(ids) });
        }

        return ids;
    }

    internal static Guid[] NewIds(int count) => [.. Enumerable.Range(0, count).Select(_ => Guid.CreateVersion7())];

    internal static string IdsJson(Guid[] ids) => "[" + string.Join(',', ids.Select(id => $"\"{id:D}\"")) + "]";

    private sealed class OrderComparer : IEqualityComparer<Data.Orders.Order>
    {
        public bool Equals(Data.Orders.Order? x, Data.Orders.Order? y) =>
            x is not null && y is not null && x.Id == y.Id && x.Status == y.Status && x.Version == y.Version && x.Total == y.Total
            && x.Lines.SequenceEqual(y.Lines) && x.Events.SequenceEqual(y.Events) && x.CreatedAt == y.CreatedAt;

        public int GetHashCode(Data.Orders.Order obj) => obj.Id.GetHashCode();
    }
}

/// <summary>The same on the SQL Server store: OPENJSON against one parameter per id.</summary>
[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerBatchFilterTests(SqlServerRelationalStore server) : IClassFixture<SqlServerRelationalStore>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Json_and_InList_return_identical_results_for_1_2100_and_10000_ids_on_SQL_Server()
    {
        if (server.UnavailableReason is { } reason)
        {
            Assert.Skip(reason);
        }

        await using var host = await server.CreateFactoryAsync("batch_filter", []);
        var database = host.Settings[$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"]!;
        await using var json = await OpenAsync(database, BatchFilter.Json);
        await using var inList = await OpenAsync(database, BatchFilter.InList);
        var existing = BatchFilterTests.NewIds(10_000);
        await using (var connection = new SqlConnection(database))
        {
            await connection.ExecuteAsync("""
                DECLARE @j TABLE (id uniqueidentifier NOT NULL);
                INSERT INTO @j SELECT id FROM OPENJSON(@Ids) WITH (id uniqueidentifier '$');
                INSERT INTO dbo.customers VALUES (N'batch', SYSDATETIMEOFFSET());
                INSERT INTO dbo.orders (id, customer_id, status, total, version, created_at, updated_at)
                SELECT id, N'batch', N'Created', 2.50, 1, SYSDATETIMEOFFSET(), SYSDATETIMEOFFSET() FROM @j;
                INSERT INTO dbo.order_lines SELECT id, 1, N'SKU-B', 2, 1.25 FROM @j;
                INSERT INTO dbo.order_events SELECT id, 1, N'Created', SYSDATETIMEOFFSET(), N'{"total":2.50}' FROM @j;
                """,
                new { Ids = new DbString { Value = BatchFilterTests.IdsJson(existing), Length = -1 } },
                commandTimeout: 120);
        }

        var viaPort = TestOrders.New();
        var created = await json.Store.CreateAsync(new NewOrder(viaPort, null, TestOrders.Hash($"{viaPort.Id}")), Ct);
        created.Outcome.ShouldBe(CreateOutcome.Created);

        // Babelfish 4.3 splits a long nvarchar(max) answer into TDS packets that SqlClient fails to read
        // (babelfish_extensions#3848), so there a batch finds at most 250 orders; it sends as many ids as elsewhere.
        var found = await server.EngineAsync() == SqlServerEngine.Babelfish ? 250 : 9_000;
        await BatchFilterTests.AssertIdenticalAsync(json.Store, inList.Store, existing, viaPort.Id, found);
    }

    private static async Task<StoreBundle> OpenAsync(string database, BatchFilter filter)
    {
        // Babelfish parses each statement shape again on a new session: seconds on a busy machine.
        var options = new StoreOptions
        {
            Provider = StoreProvider.SqlServer,
            BatchFilter = filter,
            CommandTimeoutSeconds = 60,
        };
        var bundle = SqlServerStores.Create(StoreContexts.For(options, database));
        await bundle.Schema.EnsureCreatedAsync(Ct);
        return bundle;
    }
}
