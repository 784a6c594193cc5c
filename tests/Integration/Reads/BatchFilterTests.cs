using OrderService.Data;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
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
        var missing = Enumerable.Range(0, 500).Select(_ => Guid.CreateVersion7()).ToArray();

        Guid[][] requests =
        [
            [viaPort.Id],
            [.. existing.Take(2_000), .. missing.Take(99), viaPort.Id],
            [.. existing.Skip(1_000).Take(9_000), .. missing, .. existing.Skip(1_000).Take(500)],
        ];
        int[] expectedCounts = [1, 2_001, 9_000];

        for (var i = 0; i < requests.Length; i++)
        {
            var fromJson = await json.Store.GetManyAsync(requests[i], Ct).ToListAsync(Ct);
            var fromInList = await inList.Store.GetManyAsync(requests[i], Ct).ToListAsync(Ct);

            fromJson.Count.ShouldBe(expectedCounts[i], $"request of {requests[i].Length} ids");
            fromInList.Select(o => o.Id).ShouldBe(fromJson.Select(o => o.Id), $"request of {requests[i].Length} ids");
            fromInList.ShouldBe(fromJson, new OrderComparer());
        }
    }

    /// <summary>Orders inserted straight into the tables, in the stores' format: creating 10,000 through the port would only slow the test.</summary>
    private static async Task<Guid[]> SeedAsync(OpenStore store, int count)
    {
        var ids = Enumerable.Range(0, count).Select(_ => Guid.CreateVersion7()).ToArray();
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
            var json = "[" + string.Join(',', ids.Select(id => $"\"{id:D}\"")) + "]";
            await store.ExecuteAsync("""
                BEGIN;
                INSERT INTO customers VALUES ('batch', '2025-01-01T00:00:00.000000Z');
                INSERT INTO orders SELECT value, 'batch', 'Created', 2.50, 1, '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z' FROM json_each(@Ids);
                INSERT INTO order_lines SELECT value, 1, 'SKU-B', 2, 1.25 FROM json_each(@Ids);
                INSERT INTO order_events SELECT value, 1, 'Created', '2025-01-01T00:00:00.000000Z', '{"total":2.50}' FROM json_each(@Ids);
                COMMIT;
                """, new { Ids = json });
        }

        return ids;
    }

    private sealed class OrderComparer : IEqualityComparer<Data.Orders.Order>
    {
        public bool Equals(Data.Orders.Order? x, Data.Orders.Order? y) =>
            x is not null && y is not null && x.Id == y.Id && x.Status == y.Status && x.Version == y.Version && x.Total == y.Total
            && x.Lines.SequenceEqual(y.Lines) && x.Events.SequenceEqual(y.Events) && x.CreatedAt == y.CreatedAt;

        public int GetHashCode(Data.Orders.Order obj) => obj.Id.GetHashCode();
    }
}
