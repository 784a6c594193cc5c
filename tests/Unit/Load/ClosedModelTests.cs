using OrderService.Load.Driver;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class ClosedModelTests
{
    [Theory]
    [InlineData(1, 1)]
    [InlineData(100, 1_000)]
    [InlineData(100, 7)]
    [InlineData(7, 1_000)]
    [InlineData(64, 0)]
    public async Task Copies_stop_after_exactly_the_planned_number_of_iterations(int copies, long iterations)
    {
        long started = 0;
        var tickets = new System.Collections.Concurrent.ConcurrentBag<long>();
        var scenario = Scenario.Create("workflow", async context =>
            {
                Interlocked.Increment(ref started);
                tickets.Add(context.IterationNumber);
                await Task.Yield();
                return Response.Ok();
            })
            .WithLoadSimulation(LoadSimulation.IterationsForConstant(copies, iterations));

        var stats = (await new LoadRun([scenario]).RunAsync(TestContext.Current.CancellationToken)).Single();

        started.ShouldBe(iterations);
        stats.Iterations.ShouldBe(iterations);
        tickets.Order().ShouldBe(Enumerable.Range(0, (int)iterations).Select(i => (long)i));
    }

    [Fact]
    public async Task Failed_and_throwing_iterations_still_use_their_ticket_and_are_counted_by_error()
    {
        var scenario = Scenario.Create("workflow", async context =>
            {
                var create = await context.Step("create", () => Task.FromResult(Response.Ok(201)));
                if (context.IterationNumber % 10 == 0)
                {
                    throw new TimeoutException("slow");
                }

                return context.IterationNumber % 10 == 1
                    ? await context.Step("pay", () => Task.FromResult(Response.Fail(409)))
                    : create;
            })
            .WithLoadSimulation(LoadSimulation.IterationsForConstant(13, 500));

        var stats = (await new LoadRun([scenario]).RunAsync(TestContext.Current.CancellationToken)).Single();

        stats.Iterations.ShouldBe(500);
        stats.OkIterations.ShouldBe(400);
        stats.IterationErrors["TimeoutException"].ShouldBe(50);
        stats.IterationErrors["409"].ShouldBe(50);
        stats.Steps.Select(s => s.Name).ShouldBe(["create", "pay"]);
        stats.Steps[0].Ok.ShouldBe(500);
        stats.Steps[0].Latency.TotalCount.ShouldBe(500);
        stats.Steps[1].Errors["409"].ShouldBe(50);
    }

    [Fact]
    public async Task Stopping_early_starts_no_new_iteration_and_lets_every_started_one_finish()
    {
        long finished = 0;
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var scenario = Scenario.Create("workflow", async _ =>
            {
                await gate.Task;
                Interlocked.Increment(ref finished);
                return Response.Ok();
            })
            .WithLoadSimulation(LoadSimulation.IterationsForConstant(5, 1_000));
        var run = new LoadRun([scenario]);

        var running = run.RunAsync(TestContext.Current.CancellationToken);
        while (run.Started < 5)
        {
            await Task.Delay(1, TestContext.Current.CancellationToken);
        }

        run.StopStarting();
        gate.SetResult();
        var stats = (await running.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken)).Single();

        run.Started.ShouldBe(5);
        finished.ShouldBe(5);
        stats.Iterations.ShouldBe(5);
        run.Progress.ShouldBe((5L, 1_000L));
    }

    [Fact]
    public async Task A_companion_scenario_runs_beside_the_closed_one_and_stops_when_it_is_done()
    {
        long closedDone = 0;
        var closed = Scenario.Create("writers", async _ =>
            {
                await Task.Delay(1);
                Interlocked.Increment(ref closedDone);
                return Response.Ok();
            })
            .WithLoadSimulation(LoadSimulation.IterationsForConstant(4, 200));
        var companion = Scenario.Create("readers", async context =>
            {
                await Task.Delay(1, context.CancellationToken);
                return Response.Ok();
            })
            .WithLoadSimulation(LoadSimulation.KeepConstantWhileOthersRun(2));

        var run = new LoadRun([closed, companion]);
        var results = await run.RunAsync(TestContext.Current.CancellationToken);

        closedDone.ShouldBe(200);
        results[1].Iterations.ShouldBeGreaterThan(0);
        run.Progress.ShouldBe((200L, 200L));
    }

    [Fact]
    public void The_budget_hands_out_exactly_its_limit_under_contention()
    {
        var budget = new WorkBudget(10_000);
        long granted = 0;
        Parallel.For(0, 16, _ =>
        {
            while (budget.TryClaim(out _))
            {
                Interlocked.Increment(ref granted);
            }

            // Claims after exhaustion keep failing; they never wrap around into new tickets.
            for (var i = 0; i < 1_000; i++)
            {
                budget.TryClaim(out _).ShouldBeFalse();
            }
        });

        granted.ShouldBe(10_000);
        budget.Claimed.ShouldBe(10_000);
    }
}
