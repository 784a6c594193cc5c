using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Idempotency;

/// <summary>
/// What a keyed transition costs and how a retry behaves while the first attempt is still uncommitted,
/// on each engine and layout, straight through the store (no resilience retries in between).
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class IdempotentTransitionTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public static IEnumerable<TheoryDataRow<Engine, StoreLayout, bool>> EnginesLayoutsOutcomes =>
        from engine in Enum.GetValues<Engine>()
        from layout in Enum.GetValues<StoreLayout>()
        from commits in (bool[])[true, false]
        select new TheoryDataRow<Engine, StoreLayout, bool>(engine, layout, commits).WithStoreTraits();

    /// <summary>
    /// The first attempt holds its write (key included) open, uncommitted, until it is told to commit or roll
    /// back. A retry with the same key meanwhile must wait and then answer from what really happened: a
    /// replay of the committed step, or the step itself when the first attempt rolled back. Never both, never 409.
    /// </summary>
    [Theory]
    [MemberData(nameof(EnginesLayoutsOutcomes))]
    public async Task A_retry_that_arrives_while_the_first_attempt_is_uncommitted_answers_what_the_first_attempt_became(Engine engine, StoreLayout layout, bool firstCommits)
    {
        await using var store = await stores.OpenAsync(engine, layout: layout);
        var order = await store.CreateOrderAsync();
        var holding = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        var key = "key-" + Guid.NewGuid().ToString("N");
        var pay = TestOrders.Command(order.Id, OrderAction.Pay) with { IdempotencyKey = key, RequestHash = TestOrders.Hash("pay") };

        var first = Task.Run(() => store.Store.TransitionAsync(pay, async _ =>
        {
            holding.SetResult();
            return await release.Task;
        }, Ct), Ct);
        await holding.Task.WaitAsync(TimeSpan.FromSeconds(30), Ct);
        var retry = Task.Run(() => store.Store.TransitionAsync(pay, Ct), Ct);
        await Task.Delay(300, Ct);
        retry.IsCompleted.ShouldBeFalse("the retry must wait for the uncommitted first attempt, not answer past it");

        release.SetResult(firstCommits);
        var (firstResult, retryResult) = (await first, await retry);

        var after = await store.Store.GetAsync(order.Id, Ct);
        after!.Events.Select(e => e.Type).ShouldBe(["Created", "Paid"], "exactly one Paid event");
        if (firstCommits)
        {
            firstResult.Outcome.ShouldBe(TransitionOutcome.Applied);
            retryResult.Outcome.ShouldBe(TransitionOutcome.Replayed);
            retryResult.Order!.Version.ShouldBe(2);
            retryResult.Order.Events.Count.ShouldBe(2);
        }
        else
        {
            firstResult.Outcome.ShouldBe(TransitionOutcome.Declined);
            retryResult.Outcome.ShouldBe(TransitionOutcome.Applied);
        }
    }

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
