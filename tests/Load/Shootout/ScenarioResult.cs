using NBomber.Contracts.Stats;

namespace OrderService.Load.Shootout;

/// <summary>
/// A scenario's figures as NBomber counted them: iterations (workflows) ok and failed, NBomber's ok RPS as wf/s over
/// the scenario's executed time, each step's statistics, and the failures by status code over all steps.
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
    public static ScenarioResult From(ScenarioStats stats)
    {
        var ok = stats.Ok.Request.Count;
        var perSecond = stats.Ok.Request.RPS;

        // NBomber rounds the scenario's Duration to whole seconds; its RPS is taken over the unrounded time.
        var wall = ok > 0 && perSecond > 0 ? ok / perSecond : stats.Duration.TotalSeconds;
        return new ScenarioResult(
            stats.ScenarioName, ok, stats.Fail.Request.Count, perSecond, wall,
            [.. stats.StepStats.Select(StepSummary.From)],
            stats.Fail.StatusCodes.ToDictionary(c => c.StatusCode, c => (long)c.Count));
    }
}
