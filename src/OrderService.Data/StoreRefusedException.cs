namespace OrderService.Data;

/// <summary>The engine refused the statement for good; a retry gets the same answer, so the API answers 500.</summary>
public sealed class StoreRefusedException(string engineError, Exception innerException)
    : Exception($"The order store refused the statement: {engineError}", innerException)
{
    /// <summary>The engine's code and message (<see cref="StoreErrors.Describe"/>).</summary>
    public string EngineError { get; } = engineError;
}
