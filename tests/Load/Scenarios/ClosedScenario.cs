using System.Collections.Concurrent;
using System.Diagnostics;
using NBomber.Contracts;
using NBomber.CSharp;

namespace OrderService.Load.Scenarios;

/// <summary>
/// An NBomber scenario in the closed model that runs exactly <see cref="WorkBudget.Limit"/> iterations.
/// NBomber 4.1.2 has no iteration-count simulation, only time-bound ones, so the copies run under
/// <c>KeepConstant(copies, <see cref="Unbounded"/>)</c> and the count is kept here: each iteration holds a ticket
/// from a <see cref="WorkBudget"/>. Each copy's first ticket is reserved for it by its number (NBomber starts the copies
/// at random points of the first second, and a late copy must still find work). A copy claims its next ticket before
/// it returns; one that finds none left waits inside its last iteration until every claimed iteration has finished, and
/// the last to finish stops the session (companion scenarios, such as the dirty-read readers, included). NBomber's loop
/// checks the stop before it starts another iteration, so it counts exactly W.
/// </summary>
public sealed class ClosedScenario
{
    /// <summary>The KeepConstant duration: longer than any run, the budget ends the scenario (under a day: NBomber's table prints hh:mm:ss).</summary>
    public static readonly TimeSpan Unbounded = new(23, 59, 59);

    /// <summary>Failures never stop the run: the harness counts and reports them.</summary>
    public const int MaxFailCount = int.MaxValue;

    private readonly Func<IScenarioContext, long, Task<Response<object>>> _iteration;
    // Per copy: NBomber gives each copy (actor) one context object for all its iterations.
    private readonly ConcurrentDictionary<IScenarioContext, long> _nextTicket = new(ReferenceEqualityComparer.Instance);
    private readonly TaskCompletionSource _drained = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TimeSpan _during;
    private long _firstStart;
    private long _elapsedTicks;
    private int _stopped;

    /// <param name="iteration">One workflow: the NBomber context and the workflow's ticket (0-based, unique in the run).</param>
    /// <param name="during">Null: exactly <paramref name="iterations"/>. A duration: as many as fit, NBomber's clock ends the
    /// run (pass <see cref="long.MaxValue"/> iterations).</param>
    public ClosedScenario(string name, int copies, long iterations, Func<IScenarioContext, long, Task<Response<object>>> iteration, TimeSpan? during = null)
    {
        Name = name;
        Copies = (int)Math.Min(Math.Max(1, copies), Math.Max(1, iterations));
        Budget = new WorkBudget(iterations, reserved: Copies);
        _iteration = iteration;
        _during = during ?? Unbounded;
    }

    public string Name { get; }

    public int Copies { get; }

    public WorkBudget Budget { get; }

    /// <summary>Completes when every claimed iteration has finished and the scenario was told to stop.</summary>
    public Task Drained => _drained.Task;

    /// <summary>
    /// From the first iteration's start to the last one's end, once drained. NBomber rounds a scenario's duration to
    /// whole seconds and takes a run under a second as one second for its RPS, which at 1,000 workflows on a fast
    /// store would cap wf/s at 1,000; this clock gives the wall time to the tick.
    /// </summary>
    public TimeSpan? Elapsed => Drained.IsCompleted ? TimeSpan.FromTicks(Interlocked.Read(ref _elapsedTicks)) : null;

    public ScenarioProps Build() =>
        Scenario.Create(Name, RunOnceAsync)
            .WithoutWarmUp()
            .WithRestartIterationOnFail(false)
            .WithMaxFailCount(MaxFailCount)
            .WithLoadSimulations(Simulation.KeepConstant(Copies, _during));

    private async Task<IResponse> RunOnceAsync(IScenarioContext context)
    {
        if (!_nextTicket.TryRemove(context, out var ticket)
            && !Budget.TryTakeReserved(context.ScenarioInfo.ThreadNumber, out ticket)
            && !Budget.TryClaim(out ticket))
        {
            // Only when the budget was closed before this copy's first iteration (a crash run's window, a cancelled run).
            await FinishAsync(context).ConfigureAwait(false);
            return Steps.Fail(new OperationCanceledException("no workflow left to start"));
        }

        Interlocked.CompareExchange(ref _firstStart, Stopwatch.GetTimestamp(), 0);
        Response<object> response;
        try
        {
            response = await _iteration(context, ticket).ConfigureAwait(false);
        }
        catch (Exception exception)
        {
            response = Steps.Fail(exception);
        }

        Budget.MarkFinished();
        if (Budget.TryClaim(out var next))
        {
            _nextTicket[context] = next;
        }
        else
        {
            await FinishAsync(context).ConfigureAwait(false);
        }

        return response;
    }

    private Task FinishAsync(IScenarioContext context)
    {
        if (Budget.Finished >= Budget.Claimed && Interlocked.Exchange(ref _stopped, 1) == 0)
        {
            var started = Interlocked.Read(ref _firstStart);
            Interlocked.Exchange(ref _elapsedTicks, started == 0 ? 0 : Stopwatch.GetElapsedTime(started).Ticks);
            // The whole session, companions included. Without a reason NBomber stops it as at a simulation's end;
            // StopScenario, or a reason, would log a warning on every clean run.
            context.StopCurrentTest("");
            _drained.TrySetResult();
        }

        return _drained.Task;
    }
}
