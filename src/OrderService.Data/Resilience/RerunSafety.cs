namespace OrderService.Data.Resilience;

/// <summary>
/// Whether a store call may be run again after a transient fault, by what a rerun would do if the first
/// attempt committed unseen. The rule, with <see cref="StoreFault"/>:
/// <list type="table">
/// <listheader><term>call</term><description>rerun after</description></listheader>
/// <item><term><see cref="Always"/></term><description>any transient fault (rolled back, unreachable, interrupted, attempt timed out)</description></item>
/// <item><term><see cref="OnlyIfNothingCommitted"/></term><description>only rolled back or unreachable; an interruption or an attempt time-out answers 503</description></item>
/// <item><term><see cref="Never"/></term><description>nothing: one attempt</description></item>
/// </list>
/// </summary>
public enum RerunSafety
{
    /// <summary>A probe (readiness): one attempt, so that the answer is about the store now, not after retries.</summary>
    Never,

    /// <summary>
    /// A write that a rerun cannot tell from a new request, so it could apply twice or answer a false conflict:
    /// a transition without If-Match (and without an idempotency key).
    /// </summary>
    OnlyIfNothingCommitted,

    /// <summary>
    /// A read; or a write whose rerun recognises its own first attempt: a create (the order id and the
    /// Idempotency-Key make a rerun return the first order) and a transition with If-Match (the version check
    /// makes a rerun after an unseen commit match nothing: 409 stale-version, no second event), and a transition
    /// with an Idempotency-Key (the rerun finds the stored key and replays the first answer).
    /// </summary>
    Always,
}

public static class RerunRule
{
    /// <summary>True when a call of this safety may run again after <paramref name="fault"/>.</summary>
    public static bool Allows(RerunSafety safety, StoreFault fault) => (safety, fault) switch
    {
        (RerunSafety.Never, _) or (_, StoreFault.Permanent) => false,
        (_, StoreFault.RolledBack or StoreFault.Unreachable or StoreFault.Saturated) => true,
        (RerunSafety.Always, StoreFault.Interrupted) => true,
        _ => false,
    };

    /// <summary>
    /// The safety of a transition: the version check (If-Match) or an Idempotency-Key makes a rerun harmless
    /// (a rerun after an unseen commit finds the stored key and replays the first answer).
    /// </summary>
    public static RerunSafety Of(TransitionCommand command) =>
        command.ExpectedVersion is not null || command.IdempotencyKey is not null ? RerunSafety.Always : RerunSafety.OnlyIfNothingCommitted;
}
