using MongoDB.Bson;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Idempotency;

/// <summary>
/// What the conformance suite cannot show on MongoDB: key entries stored before they carried their time (<c>at</c>)
/// are forgotten too, once their order has been unchanged for the retention, and only those.
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoKeyExpiryTests
{
    private static readonly DateTimeOffset LongAgo = new(2001, 2, 3, 4, 5, 6, TimeSpan.Zero);

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Untimed_entries_go_once_their_order_is_unchanged_for_the_retention_and_timed_ones_by_their_own_time()
    {
        await using var store = await MongoScratchStore.OpenAsync();
        var cutoff = LongAgo.AddHours(24);
        var idle = await InsertAsync(store, "idle", updatedAt: LongAgo, timed: false);
        var busy = await InsertAsync(store, "busy", updatedAt: DateTimeOffset.UtcNow, timed: false);
        var timed = await InsertAsync(store, "timed", updatedAt: LongAgo, timed: true);

        var forgotten = 0;
        int batch;
        do
        {
            batch = await store.Store.ForgetKeysStoredBeforeAsync(cutoff, 1, Ct);
            forgotten += batch;
        }
        while (batch > 0);

        forgotten.ShouldBe(2);
        (await store.RawDocumentAsync(idle.Id))[OrderKeys.Field].AsBsonArray.ShouldBeEmpty();
        (await store.RawDocumentAsync(timed.Id))[OrderKeys.Field].AsBsonArray.ShouldBeEmpty();
        (await store.RawDocumentAsync(busy.Id))[OrderKeys.Field].AsBsonArray.Count.ShouldBe(1, "its order changed within the retention");
        (await store.Store.GetAsync(idle.Id, Ct)).ShouldNotBeNull("orders stay");

        var again = await store.Store.CreateAsync(new NewOrder(TestOrders.New(), "idle", TestOrders.Hash("idle")), Ct);
        again.Outcome.ShouldBe(CreateOutcome.Created, "the forgotten key is free again");
        (await store.Store.CreateAsync(new NewOrder(TestOrders.New(), "busy", TestOrders.Hash("busy")), Ct)).Outcome.ShouldBe(CreateOutcome.Replayed);
    }

    /// <summary>An order as an earlier version stored it: its one key entry without <c>at</c> unless <paramref name="timed"/>.</summary>
    private static async Task<Order> InsertAsync(MongoScratchStore store, string key, DateTimeOffset updatedAt, bool timed)
    {
        var order = TestOrders.New();
        var document = new OrderInsert(order, key, TestOrders.Hash(key)).ToBsonDocument();
        document[OrderBson.UpdatedAt] = OrderBson.ToMicroseconds(updatedAt);
        var entry = document[OrderKeys.Field][0].AsBsonDocument;
        if (timed)
        {
            entry[OrderKeys.At] = OrderBson.ToMicroseconds(updatedAt);
        }
        else
        {
            entry.Remove(OrderKeys.At);
        }

        await store.Raw.InsertOneAsync(document, cancellationToken: Ct);
        return order;
    }
}
