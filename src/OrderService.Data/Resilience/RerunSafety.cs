namespace OrderService.Data.Resilience;

/// <summary>
/// Whether a store call may be rerun after a transient fault, should the first attempt have committed.
/// </summary>
public enum RerunSafety
{
    /// <summary>A probe: one attempt, so that the answer is about the store now, not after retries.</summary>
    Never,

    /// <summary>
    /// A write a rerun cannot tell from a new request: it could apply twice or answer a false conflict.
    /// </summary>
    OnlyIfNothingCommitted,

    /// <summary>A read; or a write whose rerun recognises its own first attempt.</summary>
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

    /// <summary>The safety of a transition: the version check or an Idempotency-Key makes a rerun harmless.</summary>
    public static RerunSafety Of(TransitionCommand command) =>
        command.ExpectedVersion is not null
            || command.IdempotencyKey is not null ? RerunSafety.Always : RerunSafety.OnlyIfNothingCommitted;
}
