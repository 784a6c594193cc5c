using NBomber.Contracts.Stats;

namespace OrderService.Load.Shootout;

/// <summary>
/// A scenario's figures as NBomber counted them: iterations (workflows) ok and failed, each step's statistics, and the
/// failures by status code over all steps. The wall time is the closed scenario's clock where there is one (NBomber
/// rounds its durations to whole seconds), and wf/s NBomber's ok count over it; otherwise NBomber's ok RPS.
/// </summary>
public sealed record ScenarioResult(
    string Name,
    long OkIterations,
    long FailedIterations,
    double WorkflowsPerSecond,
    double WallSeconds,
    List<StepSummary> Steps,
    Dictionary<string, long> IterationErrors)
{
    public static ScenarioResult From(ScenarioStats stats, TimeSpan? elapsed = null)
    {
        var ok = stats.Ok.Request.Count;
        var wall = elapsed?.TotalSeconds ?? (stats.Ok.Request.RPS > 0 ? ok / stats.Ok.Request.RPS : stats.Duration.TotalSeconds);
        var perSecond = elapsed is null ? stats.Ok.Request.RPS : wall > 0 ? Math.Round(ok / wall, 1) : 0;
        return new ScenarioResult(
            stats.ScenarioName, ok, stats.Fail.Request.Count, perSecond, wall,
            [.. stats.StepStats.Select(StepSummary.From)],
            stats.Fail.StatusCodes.ToDictionary(c => c.StatusCode, c => (long)c.Count));
    }
}
