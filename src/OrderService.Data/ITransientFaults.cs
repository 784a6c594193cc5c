namespace OrderService.Data;

/// <summary>Which driver errors are worth a retry and what each says about a write in flight.</summary>
public interface ITransientFaults
{
    /// <summary>What the fault left behind; <see cref="StoreFault.Permanent"/> when it is not transient.</summary>
    StoreFault Classify(Exception exception);

    /// <summary>True when the engine refused the statement for good: a defect, never retried.</summary>
    bool IsRefusal(Exception exception) => false;

    /// <summary>True when one of the store's nodes did not answer: retried, but it never opens the circuit.</summary>
    bool IsPartialOutage(Exception exception) => false;

    /// <summary>The engine's code and message for its driver's error, or null when it is not this engine's.</summary>
    string? DescribeError(Exception exception) => null;

    /// <summary>Driver namespaces: an exception of no driver type thrown inside them is a store fault too.</summary>
    IReadOnlyList<string> DriverNamespaces => [];
}

/// <summary>What a failed call leaves behind: is a rerun safe, does it count against the store.</summary>
public enum StoreFault
{
    /// <summary>Not transient (a constraint, a bug, bad SQL): retrying repeats it.</summary>
    Permanent,

    /// <summary>
    /// The store undid the unit: nothing committed, a rerun is safe; contention, which the breaker ignores.
    /// </summary>
    RolledBack,

    /// <summary>The store was not reached or refused to start the unit: nothing was sent, a rerun is safe.</summary>
    Unreachable,

    /// <summary>
    /// The connection broke after the unit was sent: it may have committed, so only a safe rerun runs.
    /// </summary>
    Interrupted,

    /// <summary>Our own pool had no free connection in time: nothing was sent; the breaker ignores it.</summary>
    Saturated,
}
