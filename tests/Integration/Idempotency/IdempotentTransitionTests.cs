using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Idempotency;

/// <summary>
/// What a keyed transition costs on each engine and layout, straight through the store (no resilience retries in
/// between).
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class IdempotentTransitionTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    /// <summary>The key costs no round trip: an applied keyed step is the same one command, with the key's insert inside it.</summary>
    [Theory]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    [InlineData(StoreLayout.Relational, "INSERT INTO idempotency_keys")]
    [InlineData(StoreLayout.Document, "INSERT INTO order_document_keys")]
    public async Task PostgreSql_keyed_transition_is_one_command_and_only_a_retry_reads_the_key(StoreLayout layout, string keyInsert)
    {
        await using var store = await stores.OpenAsync(Engine.PostgreSql, layout: layout);
        var order = await store.CreateOrderAsync();
        var pay = TestOrders.Command(order.Id, OrderAction.Pay) with { IdempotencyKey = "key-" + Guid.NewGuid().ToString("N"), RequestHash = TestOrders.Hash("pay") };

        using (var recorder = new StoreTelemetryRecorder())
        {
            (await store.Store.TransitionAsync(pay, Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);
            recorder.Commands.ShouldHaveSingleItem().Sql.ShouldContain(keyInsert);
            recorder.ConnectionsOpened.ShouldBe(1);
        }

        using (var recorder = new StoreTelemetryRecorder())
        {
            (await store.Store.TransitionAsync(pay, Ct)).Outcome.ShouldBe(TransitionOutcome.Replayed);
            // The relational write answers in one row only when it wrote (its read-back is the write's own RETURNING), so a
            // write that matched nothing reads the order in a statement of its own; the document's write returns it anyway.
            recorder.Commands.Count.ShouldBe(layout == StoreLayout.Relational ? 3 : 2, "the write that matched nothing, (relational: the order now,) then the key");
            // The write travels in a group commit (the group's connection), the reads after it on one of their own.
            recorder.ConnectionsOpened.ShouldBe(2);
        }

        using (var recorder = new StoreTelemetryRecorder())
        {
            (await store.Store.TransitionAsync(pay with { IdempotencyKey = null }, Ct)).Outcome.ShouldBe(TransitionOutcome.IllegalFromStatus);
            recorder.Commands.ShouldAllBe(c => !c.Sql.Contains("_keys"), "without a key nothing reads or writes keys");
        }
    }
}
