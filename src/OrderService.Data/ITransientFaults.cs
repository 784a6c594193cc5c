namespace OrderService.Data;

/// <summary>Tells the resilience pipeline which driver errors are worth a retry, and what each says about a write in
/// flight.</summary>
public interface ITransientFaults
{
    bool IsTransient(Exception exception);

    /// <summary>What the fault says about the unit of work it interrupted.</summary>
    StoreFault Classify(Exception exception) => IsTransient(exception) ? StoreFault.Interrupted : StoreFault.Permanent;

    /// <summary>True when the engine refused the statement itself, for good.</summary>
    bool IsRefusal(Exception exception) => false;

    /// <summary>True when the store answered but one of its nodes did not.</summary>
    bool IsPartialOutage(Exception exception) => false;

    /// <summary>The engine's code and message for one error its driver raised, or null when <paramref
    /// name="exception"/> is not this engine's.</summary>
    string? DescribeError(Exception exception) => null;

    /// <summary>The namespaces of the engine's driver.</summary>
    IReadOnlyList<string> DriverNamespaces => [];
}

/// <summary>What a failed call leaves behind, which decides whether a rerun is safe and whether it counts against the
/// store's health.</summary>
public enum StoreFault
{
    /// <summary>Not transient (a constraint, a bug, bad SQL): retrying repeats it.</summary>
    Permanent,

    /// <summary>The store undid the unit: nothing committed, and rerunning the whole unit is safe.</summary>
    RolledBack,

    /// <summary>The store was not reached, or refused to start the unit.</summary>
    Unreachable,

    /// <summary>The connection broke or timed out after the unit was sent: it may have committed.</summary>
    Interrupted,

    /// <summary>The service's own connection pool had no free connection in time.</summary>
    Saturated,
}
