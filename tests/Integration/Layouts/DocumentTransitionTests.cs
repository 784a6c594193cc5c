using System.Collections.Concurrent;
using System.Diagnostics;
using OrderService.Data;
using OrderService.Data.Document;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;
using static OrderService.Integration.Tests.Layouts.DocumentTestData;

namespace OrderService.Integration.Tests.Layouts;

[Collection(nameof(DocumentCollection))]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class DocumentTransitionTests(DocumentDatabases databases)
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task A_transition_is_one_statement_that_updates_status_version_and_events_together(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var created = (await store.Store.CreateAsync(NewOrder(), Token)).Order!;

        var (result, commands, wireCommands) = await CountCommandsAsync(() => store.Store.TransitionAsync(Command(created.Id, OrderAction.Pay), Token));

        result.Outcome.ShouldBe(TransitionOutcome.Applied);
        commands.ShouldHaveSingleItem().ShouldStartWith("UPDATE order_documents");
        if (engine == Engine.PostgreSql)
        {
            // Npgsql's own tracing sees what went over the wire: one command, in autocommit.
            wireCommands.ShouldBe(1);
        }
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task The_stored_transition_equals_the_pure_rules_applied_in_memory(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var order = (await store.Store.CreateAsync(NewOrder(), Token)).Order!;
        var step = 1;
        foreach (var action in new[] { OrderAction.Pay, OrderAction.Ship, OrderAction.Complete })
        {
            var command = Command(order.Id, action, order.Version, step++);
            var expected = OrderDocument.Normalize(Transitions.Apply(order, action, command.At, command.Data));

            var result = await store.Store.TransitionAsync(command, Token);

            result.Outcome.ShouldBe(TransitionOutcome.Applied);
            OrderDocument.ToJson(result.Order!).ShouldBe(OrderDocument.ToJson(expected));
            order = result.Order!;
        }

        OrderDocument.ToJson((await store.Store.GetAsync(order.Id, Token))!).ShouldBe(OrderDocument.ToJson(order));
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task Hundred_parallel_transitions_on_one_order_have_exactly_one_winner(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var order = (await store.Store.CreateAsync(NewOrder(), Token)).Order!;

        var results = await Task.WhenAll(Enumerable.Range(0, 100).Select(i =>
            // Pay and Cancel race from version 1: without the expected version, Pay then Cancel would
            // both be legal in sequence, so it is the version guard that must leave one winner.
            Task.Run(() => store.Store.TransitionAsync(Command(order.Id, i % 2 == 0 ? OrderAction.Pay : OrderAction.Cancel, expectedVersion: 1, step: i + 1), Token), Token)));

        results.Count(r => r.Outcome == TransitionOutcome.Applied).ShouldBe(1);
        results.Where(r => r.Outcome != TransitionOutcome.Applied)
            .ShouldAllBe(r => r.Outcome == TransitionOutcome.IllegalFromStatus || r.Outcome == TransitionOutcome.StaleVersion);
        var stored = (await store.Store.GetAsync(order.Id, Token))!;
        stored.Version.ShouldBe(2);
        stored.Events.Select(e => e.Sequence).ShouldBe([1, 2]);
        stored.Events[1].Type.ShouldBe(stored.Status.ToString());
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task Hundred_workers_racing_a_whole_workflow_with_if_match_leave_events_one_to_n_without_gaps(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var order = (await store.Store.CreateAsync(NewOrder(), Token)).Order!;
        var winners = new ConcurrentBag<int>();

        await Task.WhenAll(Enumerable.Range(0, 100).Select(worker => Task.Run(async () =>
        {
            while ((await store.Store.GetAsync(order.Id, Token))! is var current && NextAction(current.Status) is { } action)
            {
                var result = await store.Store.TransitionAsync(Command(order.Id, action, current.Version, worker + 1), Token);
                if (result.Outcome == TransitionOutcome.Applied)
                {
                    winners.Add(result.Order!.Version);
                }
                else
                {
                    result.Outcome.ShouldBeOneOf(TransitionOutcome.StaleVersion, TransitionOutcome.IllegalFromStatus);
                }
            }
        }, Token)));

        winners.Order().ShouldBe([2, 3, 4]);
        var stored = (await store.Store.GetAsync(order.Id, Token))!;
        stored.Status.ShouldBe(OrderStatus.Completed);
        stored.Events.Select(e => e.Sequence).ShouldBe([1, 2, 3, 4]);
        stored.Events.Select(e => e.Type).ShouldBe(["Created", "Paid", "Shipped", "Completed"]);
        (await store.ScalarAsync<int>("SELECT version FROM order_documents")).ShouldBe(4);
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task A_write_that_matches_nothing_is_explained_by_the_current_state(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var order = (await store.Store.CreateAsync(NewOrder(), Token)).Order!;

        var illegal = await store.Store.TransitionAsync(Command(order.Id, OrderAction.Complete), Token);
        var stale = await store.Store.TransitionAsync(Command(order.Id, OrderAction.Pay, expectedVersion: 7), Token);
        var missing = await store.Store.TransitionAsync(Command(Guid.CreateVersion7(), OrderAction.Pay), Token);

        illegal.ShouldBe(new TransitionResult(TransitionOutcome.IllegalFromStatus, null, OrderStatus.Created, 1));
        stale.ShouldBe(new TransitionResult(TransitionOutcome.StaleVersion, null, OrderStatus.Created, 1));
        missing.Outcome.ShouldBe(TransitionOutcome.NotFound);
        (await store.Store.GetAsync(order.Id, Token))!.Events.Count.ShouldBe(1);
    }

    /// <summary>Runs <paramref name="call"/> and returns the SQL of every store command it sent, and Npgsql's count.</summary>
    private static async Task<(T Result, List<string> Commands, int WireCommands)> CountCommandsAsync<T>(Func<Task<T>> call)
    {
        var commands = new ConcurrentQueue<string>();
        var wire = 0;
        using var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name is StoreTelemetry.Name or "Npgsql",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                if (activity.Source.Name == "Npgsql")
                {
                    Interlocked.Increment(ref wire);
                }
                else
                {
                    commands.Enqueue(activity.GetTagItem("db.statement") as string ?? "");
                }
            },
        };
        ActivitySource.AddActivityListener(listener);
        var result = await call();
        return (result, commands.Select(sql => sql.Trim()).ToList(), wire);
    }
}
