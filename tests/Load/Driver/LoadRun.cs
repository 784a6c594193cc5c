using System.Diagnostics;

namespace OrderService.Load.Driver;

/// <summary>
/// Runs scenarios side by side. Closed scenarios end after exactly their iteration count; companion
/// scenarios run until every closed one is done. Create it, start <see cref="RunAsync"/>, and poll
/// <see cref="Progress"/> from elsewhere (the live console, a crash trigger) while it runs.
/// </summary>
public sealed class LoadRun
{
    private readonly IReadOnlyList<Scenario> _scenarios;
    private readonly Dictionary<string, ScenarioStats> _stats;
    private readonly Dictionary<string, WorkBudget> _budgets = [];
    private readonly Stopwatch _clock = new();

    public LoadRun(IReadOnlyList<Scenario> scenarios)
    {
        if (scenarios.Select(s => s.Name).Distinct().Count() != scenarios.Count)
        {
            throw new ArgumentException("Scenario names must be unique within a run.", nameof(scenarios));
        }

        _scenarios = scenarios;
        _stats = scenarios.ToDictionary(s => s.Name, s => new ScenarioStats(s.Name));
        foreach (var scenario in scenarios)
        {
            if (scenario.Simulation is LoadSimulation.ClosedIterations closed)
            {
                _budgets[scenario.Name] = new WorkBudget(closed.Iterations);
            }
        }
    }

    public TimeSpan Elapsed => _clock.Elapsed;

    public ScenarioStats Stats(string scenarioName) => _stats[scenarioName];

    /// <summary>Iterations finished and planned over all closed scenarios.</summary>
    public (long Done, long Planned) Progress =>
        (_budgets.Values.Sum(b => b.Finished), _budgets.Values.Sum(b => b.Limit));

    /// <summary>Iterations started so far over all closed scenarios.</summary>
    public long Started => _budgets.Values.Sum(b => b.Claimed);

    /// <summary>Ends the run early: closed scenarios start no more iterations, and those running finish.</summary>
    public void StopStarting()
    {
        foreach (var budget in _budgets.Values)
        {
            budget.Close();
        }
    }

    public async Task<IReadOnlyList<ScenarioStats>> RunAsync(CancellationToken cancellationToken)
    {
        using var companions = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _clock.Start();
        var closedRuns = new List<Task>();
        var companionRuns = new List<Task>();
        foreach (var scenario in _scenarios)
        {
            var stats = _stats[scenario.Name];
            var copies = Math.Max(1, scenario.Simulation.Copies);
            if (_budgets.TryGetValue(scenario.Name, out var budget))
            {
                closedRuns.Add(RunClosedAsync(scenario, stats, budget, copies, cancellationToken));
            }
            else
            {
                companionRuns.Add(RunCompanionAsync(scenario, stats, copies, companions.Token));
            }
        }

        try
        {
            await Task.WhenAll(closedRuns).ConfigureAwait(false);
        }
        finally
        {
            await companions.CancelAsync().ConfigureAwait(false);
            await Task.WhenAll(companionRuns).ConfigureAwait(false);
            _clock.Stop();
        }

        return [.. _scenarios.Select(s => _stats[s.Name])];
    }

    private static async Task RunClosedAsync(Scenario scenario, ScenarioStats stats, WorkBudget budget, int copies, CancellationToken cancellationToken)
    {
        stats.StartedAt = DateTimeOffset.UtcNow;
        var started = Stopwatch.GetTimestamp();
        var copyRuns = Enumerable.Range(0, copies).Select(copy => Task.Run(async () =>
        {
            var context = new ScenarioContext(stats, copy, cancellationToken);
            while (!cancellationToken.IsCancellationRequested && budget.TryClaim(out var ticket))
            {
                context.IterationNumber = ticket;
                var response = await RunIterationAsync(scenario, context, cancellationToken).ConfigureAwait(false);
                stats.RecordIteration(response);
                budget.MarkFinished();
            }
        }, CancellationToken.None));
        await Task.WhenAll(copyRuns).ConfigureAwait(false);
        stats.Elapsed = Stopwatch.GetElapsedTime(started);
    }

    private static async Task RunCompanionAsync(Scenario scenario, ScenarioStats stats, int copies, CancellationToken stop)
    {
        stats.StartedAt = DateTimeOffset.UtcNow;
        var started = Stopwatch.GetTimestamp();
        long counter = -1;
        var copyRuns = Enumerable.Range(0, copies).Select(copy => Task.Run(async () =>
        {
            var context = new ScenarioContext(stats, copy, stop);
            while (!stop.IsCancellationRequested)
            {
                context.IterationNumber = Interlocked.Increment(ref counter);
                try
                {
                    stats.RecordIteration(await scenario.Iteration(context).ConfigureAwait(false));
                }
                catch (OperationCanceledException) when (stop.IsCancellationRequested)
                {
                    return;
                }
                catch (Exception exception)
                {
                    stats.RecordIteration(Response.Fail(exception));
                }
            }
        }, CancellationToken.None));
        await Task.WhenAll(copyRuns).ConfigureAwait(false);
        stats.Elapsed = Stopwatch.GetElapsedTime(started);
    }

    private static async Task<Response> RunIterationAsync(Scenario scenario, ScenarioContext context, CancellationToken cancellationToken)
    {
        try
        {
            return await scenario.Iteration(context).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return Response.Fail(new OperationCanceledException("The run was cancelled."));
        }
        catch (Exception exception)
        {
            return Response.Fail(exception);
        }
    }
}
