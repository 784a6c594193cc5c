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
    [InlineData(2_000, 5_000, 2_000)] // the attempt bound while the total leaves more
    [InlineData(2_000, 700, 700)] // what is left of the total when that is shorter: the total bound holds without a strategy of its own
    [InlineData(2_000, 0, 1)] // never zero, which Polly reads as "no timeout"
    [InlineData(2_000, -50, 1)]
    public void An_attempt_is_bounded_by_the_attempt_timeout_or_what_is_left_of_the_total(int attemptMs, int remainingMs, int boundMs) =>
        StorePipeline.AttemptBound(TimeSpan.FromMilliseconds(attemptMs), TimeSpan.FromMilliseconds(remainingMs)).ShouldBe(TimeSpan.FromMilliseconds(boundMs));

    [Theory]
    [InlineData(0, 100, 5_000, 100)]
    [InlineData(3, 100, 5_000, 800)]
    [InlineData(6, 100, 1_000, 1_000)] // the ceiling never passes what is left of the total timeout
    [InlineData(2, 100, 0, 0)]
    public void Full_jitter_draws_from_zero_to_the_exponential_ceiling_within_the_budget(int attempt, int baseMs, int remainingMs, int ceilingMs)
    {
        var delays = Enumerable.Range(0, 2_000)
            .Select(_ => StorePipeline.FullJitter(attempt, TimeSpan.FromMilliseconds(baseMs), TimeSpan.FromMilliseconds(remainingMs)).TotalMilliseconds)
            .ToList();

        delays.ShouldAllBe(d => d >= 0 && d <= ceilingMs);
        if (ceilingMs > 0)
        {
            // Full jitter, not "exponential plus a little": the draws spread over the whole range.
            delays.Min().ShouldBeLessThan(ceilingMs * 0.1);
            delays.Max().ShouldBeGreaterThan(ceilingMs * 0.9);
        }
    }

    private static TransitionCommand Command(int? expectedVersion) =>
        new(Guid.CreateVersion7(), OrderAction.Pay, expectedVersion, DateTimeOffset.UtcNow, new OrderEventData());
}
