using System.Collections.Concurrent;
using NBomber.CSharp;
using OrderService.Load.Scenarios;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

/// <summary>
/// The closed model on NBomber 4.1.2 (which has no iteration-count simulation): real NBomber sessions, counted by
/// NBomber's own statistics, so the exact count is NBomber's figure and not only the budget's.
/// </summary>
[Collection(nameof(LiveConsoleCollection))]
public sealed class ClosedModelTests : IDisposable
{
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "closed-model-" + Guid.NewGuid().ToString("N"));

    [Theory]
    [InlineData(1, 1)]
    [InlineData(100, 1_000)]
    [InlineData(100, 7)]
    [InlineData(7, 1_000)]
    public async Task NBomber_counts_exactly_the_planned_number_of_iterations(int copies, long iterations)
    {
        var tickets = new ConcurrentBag<long>();
        var scenario = new ClosedScenario("workflow", copies, iterations, async (context, ticket) =>
        {
            tickets.Add(ticket);
            return await Steps.RunAsync("create", context, async () =>
            {
                await Task.Yield();
                return Steps.Ok(201);
            }, CancellationToken.None);
        });

        var stats = (await LoadSession.RunAsync(_folder, "exact", reports: false, [scenario.Build()])).Scenario("workflow");

        stats.Ok.Request.Count.ShouldBe((int)iterations);
        stats.Fail.Request.Count.ShouldBe(0);
        stats.StepStats.Single().Ok.Request.Count.ShouldBe((int)iterations);
        tickets.Order().ShouldBe(Enumerable.Range(0, (int)iterations).Select(i => (long)i));
    }

    [Fact]
    public async Task Failed_and_throwing_iterations_use_their_ticket_and_NBomber_counts_them_by_status()
    {
        var scenario = new ClosedScenario("workflow", 13, 500, async (context, ticket) =>
        {
            var create = await Steps.RunAsync("create", context, () => Task.FromResult(Steps.Ok(201)), CancellationToken.None);
            if (ticket % 10 == 0)
            {
                throw new TimeoutException("slow");
            }

            return ticket % 10 == 1
                ? await Steps.RunAsync("pay", context, () => Task.FromResult(Steps.Fail(409, "version moved")), CancellationToken.None)
                : create;
        });

        var stats = (await LoadSession.RunAsync(_folder, "failures", reports: false, [scenario.Build()])).Scenario("workflow");

        stats.Ok.Request.Count.ShouldBe(400);
        stats.Fail.Request.Count.ShouldBe(100);
        stats.StepStats.Select(s => s.StepName).ShouldBe(["create", "pay"]);
        stats.StepStats[0].Ok.Request.Count.ShouldBe(500);
        stats.StepStats[1].Fail.StatusCodes.Single().StatusCode.ShouldBe("409");
        stats.StepStats[1].Fail.StatusCodes.Single().Count.ShouldBe(50);
        stats.Fail.StatusCodes.Single(c => c.StatusCode == nameof(TimeoutException)).Count.ShouldBe(50);
    }

    [Fact]
    public async Task Closing_the_budget_starts_no_new_iteration_and_lets_every_started_one_finish()
    {
        long started = 0;
        long finished = 0;
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var scenario = new ClosedScenario("workflow", 5, 1_000, async (_, _) =>
        {
            Interlocked.Increment(ref started);
            await gate.Task;
            Interlocked.Increment(ref finished);
            return Steps.Ok();
        });

        var running = LoadSession.RunAsync(_folder, "closed early", reports: false, [scenario.Build()]);
        while (Interlocked.Read(ref started) < 5)
        {
            await Task.Delay(5, TestContext.Current.CancellationToken);
        }

        scenario.Budget.Close();
        gate.SetResult();
        var stats = (await running.WaitAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken)).Scenario("workflow");

        scenario.Budget.Claimed.ShouldBe(5);
        finished.ShouldBe(5);
        stats.Ok.Request.Count.ShouldBe(5);
    }

    [Fact]
    public async Task A_companion_scenario_runs_beside_the_closed_one_and_stops_when_it_is_done()
    {
        long readerIterations = 0;
        // About 2 s of writing: NBomber starts each copy within its first second, readers included.
        var writers = new ClosedScenario("writers", 4, 100, async (context, _) =>
            await Steps.RunAsync("write", context, async () =>
            {
                await Task.Delay(80);
                return Steps.Ok();
            }, CancellationToken.None));
        var readers = Scenario.Create("readers", async _ =>
            {
                Interlocked.Increment(ref readerIterations);
                await Task.WhenAny(Task.Delay(1), writers.Drained);
                return Response.Ok();
            })
            .WithoutWarmUp()
            .WithLoadSimulations(Simulation.KeepConstant(2, ClosedScenario.Unbounded));

        var stats = await LoadSession.RunAsync(_folder, "companion", reports: false, [writers.Build(), readers])
            .WaitAsync(TimeSpan.FromSeconds(120), TestContext.Current.CancellationToken);

        stats.Scenario("writers").Ok.Request.Count.ShouldBe(100);
        Interlocked.Read(ref readerIterations).ShouldBeGreaterThan(0);
        writers.Drained.IsCompleted.ShouldBeTrue();
    }

    [Fact]
    public async Task A_copy_that_NBomber_starts_late_still_runs_a_workflow_of_its_own()
    {
        // 50 copies and 55 workflows of 300 ms: NBomber starts the copies over its first second, so without a reserved
        // first ticket the early ones take all 55 before the last ones start, and those count an empty failure.
        var perCopy = new ConcurrentDictionary<int, int>();
        var scenario = new ClosedScenario("workflow", 50, 55, async (context, _) =>
        {
            perCopy.AddOrUpdate(context.ScenarioInfo.ThreadNumber, 1, (_, n) => n + 1);
            await Task.Delay(300);
            return Steps.Ok();
        });

        var stats = (await LoadSession.RunAsync(_folder, "late copies", reports: false, [scenario.Build()])
            .WaitAsync(TimeSpan.FromSeconds(120), TestContext.Current.CancellationToken)).Scenario("workflow");

        stats.Fail.Request.Count.ShouldBe(0);
        stats.Ok.Request.Count.ShouldBe(55);
        perCopy.Keys.Order().ShouldBe(Enumerable.Range(0, 50));
    }

    [Fact]
    public void Reserved_tickets_count_as_claimed_and_each_copy_takes_its_own_once()
    {
        var budget = new WorkBudget(10, reserved: 3);
        budget.Claimed.ShouldBe(3);
        budget.TryClaim(out var first).ShouldBeTrue();
        first.ShouldBe(3);
        budget.TryTakeReserved(1, out var reserved).ShouldBeTrue();
        reserved.ShouldBe(1);
        budget.TryTakeReserved(1, out _).ShouldBeFalse("a reservation is taken once");
        budget.TryTakeReserved(3, out _).ShouldBeFalse("copy 3 has no reservation");

        budget.Close();
        budget.TryTakeReserved(0, out _).ShouldBeFalse("after Close a reservation is given up");
        budget.Finished.ShouldBe(1, "a reservation given up counts as finished, so the run drains");
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

    public void Dispose()
    {
        if (Directory.Exists(_folder))
        {
            Directory.Delete(_folder, recursive: true);
        }
    }
}
