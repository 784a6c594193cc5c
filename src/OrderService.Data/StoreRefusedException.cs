namespace OrderService.Data;

/// <summary>
/// The engine refused the statement for good (<see cref="ITransientFaults.IsRefusal"/>): a feature it does not support
/// (SQLSTATE class 0A, Citus's "complex joins are only supported when ..."), SQL it cannot run. Nothing was written, and
/// a retry gets the same answer, so this is never a 503 with Retry-After: the API answers 500 and logs the engine's
/// code and message, which name what this service (its code or its settings) must change.
/// </summary>
public sealed class StoreRefusedException(string engineError, Exception innerException)
    : Exception($"The order store refused the statement: {engineError}", innerException)
{
    /// <summary>The engine's code and message (<see cref="StoreErrors.Describe"/>).</summary>
    public string EngineError { get; } = engineError;
}
