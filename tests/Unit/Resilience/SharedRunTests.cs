using OrderService.Data.Resilience;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Resilience;

/// <summary>Slow preparatory work runs once for every caller, outlives a caller that gives up, and runs again after a failure.</summary>
public sealed class SharedRunTests
{
    [Fact]
    public async Task A_caller_that_gives_up_stops_waiting_and_the_run_goes_on_for_the_next()
    {
        var runs = 0;
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var shared = new SharedRun(async token =>
        {
            Interlocked.Increment(ref runs);
            await release.Task.WaitAsync(token);
        }, TimeSpan.FromMinutes(1));

        using var givesUp = new CancellationTokenSource();
        var first = shared.WaitAsync(givesUp.Token);
        await givesUp.CancelAsync();
        await Should.ThrowAsync<OperationCanceledException>(first);

        var second = shared.WaitAsync(TestContext.Current.CancellationToken);
        release.SetResult();
        await second;

        runs.ShouldBe(1);
    }

    [Fact]
    public async Task A_run_that_failed_is_started_afresh_by_the_next_caller()
    {
        var runs = 0;
        var shared = new SharedRun(_ => ++runs == 1 ? Task.FromException(new InvalidOperationException("server down")) : Task.CompletedTask, TimeSpan.FromMinutes(1));

        await Should.ThrowAsync<InvalidOperationException>(shared.WaitAsync(TestContext.Current.CancellationToken));
        await shared.WaitAsync(TestContext.Current.CancellationToken);
        await shared.WaitAsync(TestContext.Current.CancellationToken);

        runs.ShouldBe(2);
    }
}
