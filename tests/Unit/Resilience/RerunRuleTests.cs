using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Data.Resilience;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Resilience;

/// <summary>The rerun rule as a table: which call may run again after which fault.</summary>
public sealed class RerunRuleTests
{
    [Theory]
    // A read, a create (id / Idempotency-Key), a transition with If-Match: any transient fault.
    [InlineData(RerunSafety.Always, StoreFault.RolledBack, true)]
    [InlineData(RerunSafety.Always, StoreFault.Unreachable, true)]
    [InlineData(RerunSafety.Always, StoreFault.Interrupted, true)]
    [InlineData(RerunSafety.Always, StoreFault.Saturated, true)]
    [InlineData(RerunSafety.Always, StoreFault.Permanent, false)]
    // A transition without If-Match: only when nothing can have committed.
    [InlineData(RerunSafety.OnlyIfNothingCommitted, StoreFault.RolledBack, true)]
    [InlineData(RerunSafety.OnlyIfNothingCommitted, StoreFault.Unreachable, true)]
    [InlineData(RerunSafety.OnlyIfNothingCommitted, StoreFault.Interrupted, false)]
    [InlineData(RerunSafety.OnlyIfNothingCommitted, StoreFault.Saturated, true)] // nothing was sent
    [InlineData(RerunSafety.OnlyIfNothingCommitted, StoreFault.Permanent, false)]
    // The readiness probe: one attempt.
    [InlineData(RerunSafety.Never, StoreFault.RolledBack, false)]
    [InlineData(RerunSafety.Never, StoreFault.Unreachable, false)]
    [InlineData(RerunSafety.Never, StoreFault.Interrupted, false)]
    [InlineData(RerunSafety.Never, StoreFault.Saturated, false)]
    public void A_call_is_rerun_only_when_its_safety_covers_what_the_fault_left_behind(RerunSafety safety, StoreFault fault, bool rerun) =>
        RerunRule.Allows(safety, fault).ShouldBe(rerun);

    [Fact]
    public void The_version_check_makes_a_transition_safe_to_rerun_and_its_absence_does_not()
    {
        RerunRule.Of(Command(expectedVersion: 3)).ShouldBe(RerunSafety.Always);
        RerunRule.Of(Command(expectedVersion: null)).ShouldBe(RerunSafety.OnlyIfNothingCommitted);
    }

    [Fact]
    public void An_idempotency_key_makes_a_transition_without_if_match_safe_to_rerun() =>
        RerunRule.Of(Command(expectedVersion: null) with { IdempotencyKey = "pay-1", RequestHash = "h" }).ShouldBe(RerunSafety.Always);

    [Theory]
    [InlineData(0, 100, 100)]
    [InlineData(3, 100, 800)]
    public void Full_jitter_draws_from_zero_to_the_exponential_ceiling(int attempt, int baseMs, int ceilingMs)
    {
        var delays = Enumerable.Range(0, 2_000)
            .Select(_ => StorePipeline.FullJitter(attempt, TimeSpan.FromMilliseconds(baseMs)).TotalMilliseconds)
            .ToList();

        delays.ShouldAllBe(d => d >= 0 && d <= ceilingMs);

        // Full jitter, not "exponential plus a little": the draws spread over the whole range.
        delays.Min().ShouldBeLessThan(ceilingMs * 0.1);
        delays.Max().ShouldBeGreaterThan(ceilingMs * 0.9);
    }

    [Fact]
    public async Task The_total_timeout_ends_retries_and_backoff_that_would_outlast_it()
    {
        var builder = new Polly.ResiliencePipelineBuilder();
        StorePipeline.Configure(builder, new ResilienceOptions
        {
            TotalTimeoutSeconds = 1,
            AttemptTimeoutSeconds = 1,
            MaxConflictRetries = 20,
            RetryDelayMilliseconds = 10_000,
        }, "test", new Polly.CircuitBreaker.CircuitBreakerStateProvider());
        var context = Polly.ResilienceContextPool.Shared.Get(TestContext.Current.CancellationToken);
        context.Properties.Set(StorePipeline.Facts, new StoreCallFacts("test", RerunSafety.Always));

        await Should.ThrowAsync<Polly.Timeout.TimeoutRejectedException>(async () =>
            await builder.Build().ExecuteAsync(static _ => throw new TransientStoreFault(
                new InvalidOperationException("serialization failure"), StoreFault.RolledBack), context));
    }

    private static TransitionCommand Command(int? expectedVersion) =>
        new(Guid.CreateVersion7(), OrderAction.Pay, expectedVersion, DateTimeOffset.UtcNow, new OrderEventData());
}
