namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>
/// The host's clock, moved forward by the test: what the service stamps and what the clean-up measures ages against.
/// Timers and timestamps stay the system's, so the resilience pipeline's timeouts and backoff run as in production
/// (a frozen clock would leave a retry's delay waiting forever).
/// </summary>
public sealed class ShiftedClock : TimeProvider
{
    private long _shiftTicks;

    public void Advance(TimeSpan by) => Interlocked.Add(ref _shiftTicks, by.Ticks);

    public override DateTimeOffset GetUtcNow() => System.GetUtcNow().AddTicks(Interlocked.Read(ref _shiftTicks));
}
