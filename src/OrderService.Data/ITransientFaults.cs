namespace OrderService.Data;

/// <summary>
/// Tells the resilience pipeline which driver errors are worth a retry (deadlocks, serialization
/// failures, busy databases, lost connections, timeouts), and what each says about a write in flight.
/// Everything else fails at once. Each provider registers its own.
/// </summary>
public interface ITransientFaults
{
    bool IsTransient(Exception exception);

    /// <summary>
    /// What the fault says about the unit of work it interrupted. The default treats every transient fault
    /// as <see cref="StoreFault.Interrupted"/>: the safe answer for a store that cannot tell (it never reruns
    /// a write that may have committed). A store that can tell overrides it.
    /// </summary>
    StoreFault Classify(Exception exception) => IsTransient(exception) ? StoreFault.Interrupted : StoreFault.Permanent;

    /// <summary>
    /// True when the engine refused the statement itself, for good (a feature it does not support, SQL it cannot run):
    /// answered as a defect (<see cref="StoreRefusedException"/>), never as a retryable outage.
    /// </summary>
    bool IsRefusal(Exception exception) => false;

    /// <summary>
    /// True when the store answered but one of its nodes did not (Citus: a worker down, relayed by the coordinator): the
    /// call that needed that node failed, while calls on the other nodes go on. It is retried like any fault of its kind,
    /// but never opens the circuit, which would turn away the calls the live nodes can serve.
    /// </summary>
    bool IsPartialOutage(Exception exception) => false;

    /// <summary>
    /// The engine's code and message for one error its driver raised (not searching inner exceptions), or null when
    /// <paramref name="exception"/> is not this engine's: <see cref="StoreErrors.Describe"/> asks the store in use.
    /// </summary>
    string? DescribeError(Exception exception) => null;

    /// <summary>
    /// The namespaces of the engine's driver ("Npgsql."): an exception of no driver type thrown inside them is the
    /// store's fault too (<see cref="StoreErrors.DescribeDriverFault"/>).
    /// </summary>
    IReadOnlyList<string> DriverNamespaces => [];
}

/// <summary>
/// What a failed call leaves behind, which decides whether a rerun is safe (Resilience/RerunSafety.cs)
/// and whether it counts against the store's health (the circuit breaker).
/// </summary>
public enum StoreFault
{
    /// <summary>Not transient (a constraint, a bug, bad SQL): retrying repeats it. Fails at once.</summary>
    Permanent,

    /// <summary>
    /// The store undid the unit (serialization failure, deadlock victim, busy or locked, lock time-out):
    /// nothing committed, and rerunning the whole unit is safe. Contention, not an outage: the breaker ignores it.
    /// </summary>
    RolledBack,

    /// <summary>
    /// The store was not reached, or refused to start the unit (connection refused, server starting, too many
    /// connections): nothing was sent, so a rerun is safe. It counts towards opening the breaker.
    /// </summary>
    Unreachable,

    /// <summary>
    /// The connection broke or timed out after the unit was sent: it may have committed. Only a call whose
    /// rerun is recognised (a key, an id, a version check) is rerun. It counts towards opening the breaker.
    /// </summary>
    Interrupted,

    /// <summary>
    /// The service's own connection pool had no free connection in time (every connection busy with other calls):
    /// nothing was sent, so a rerun is safe. Load on this service, not a store outage: the breaker ignores it, as
    /// it ignores contention. A store that hangs still opens the circuit through its commands' time-outs.
    /// </summary>
    Saturated,
}
