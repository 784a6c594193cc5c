namespace OrderService.Load.Driver;

/// <summary>
/// A scenario in NBomber's sense: a named iteration (the workflow) run by a number of copies under a
/// load simulation. Build one with <see cref="Create"/> and <see cref="WithLoadSimulation"/>.
/// </summary>
public sealed class Scenario
{
    private Scenario(string name, Func<ScenarioContext, Task<Response>> iteration, LoadSimulation simulation)
    {
        Name = name;
        Iteration = iteration;
        Simulation = simulation;
    }

    public string Name { get; }

    public Func<ScenarioContext, Task<Response>> Iteration { get; }

    public LoadSimulation Simulation { get; }

    public static Scenario Create(string name, Func<ScenarioContext, Task<Response>> iteration) =>
        new(name, iteration, LoadSimulation.IterationsForConstant(1, 1));

    public Scenario WithLoadSimulation(LoadSimulation simulation) => new(Name, Iteration, simulation);
}

/// <summary>How a scenario's copies run.</summary>
public abstract record LoadSimulation(int Copies)
{
    /// <summary>The closed model: <paramref name="copies"/> copies run iterations back to back until exactly <paramref name="iterations"/> are done.</summary>
    public static LoadSimulation IterationsForConstant(int copies, long iterations) => new ClosedIterations(copies, iterations);

    /// <summary>A companion load (e.g. readers beside writers): runs until every closed scenario of the run is done.</summary>
    public static LoadSimulation KeepConstantWhileOthersRun(int copies) => new WhileOthersRun(copies);

    public sealed record ClosedIterations(int Copies, long Iterations) : LoadSimulation(Copies);

    public sealed record WhileOthersRun(int Copies) : LoadSimulation(Copies);
}

/// <summary>What one iteration sees: who runs it, which ticket it holds, and how to time a step.</summary>
public sealed class ScenarioContext
{
    private readonly ScenarioStats _stats;

    internal ScenarioContext(ScenarioStats stats, int copyNumber, CancellationToken cancellationToken)
    {
        _stats = stats;
        CopyNumber = copyNumber;
        CancellationToken = cancellationToken;
    }

    public string ScenarioName => _stats.Name;

    public int CopyNumber { get; }

    /// <summary>This iteration's ticket, 0-based and unique within the run (for closed scenarios; a counter otherwise).</summary>
    public long IterationNumber { get; internal set; }

    public CancellationToken CancellationToken { get; }

    /// <summary>Runs and times one step, recording its latency and its error (status code or exception type).</summary>
    public Task<Response> Step(string name, Func<Task<Response>> step) => Driver.Step.Run(_stats.Step(name), step, CancellationToken);
}

/// <summary>Times a step; an exception becomes a failed response keyed by its type, so one bad call never ends a copy.</summary>
public static class Step
{
    public static async Task<Response> Run(StepStats stats, Func<Task<Response>> step, CancellationToken cancellationToken)
    {
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        Response response;
        try
        {
            response = await step().ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (Exception exception)
        {
            response = Response.Fail(exception);
        }

        stats.Record(response, System.Diagnostics.Stopwatch.GetElapsedTime(started));
        return response;
    }
}
