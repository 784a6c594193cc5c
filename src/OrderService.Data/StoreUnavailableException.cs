namespace OrderService.Data;

/// <summary>The store could not be reached, timed out after the bounded retries, or failed with an engine error it
/// cannot classify.</summary>
public sealed class StoreUnavailableException(string message, Exception? innerException = null, TimeSpan? retryAfter =
    null)
    : Exception(message, innerException)
{
    public TimeSpan? RetryAfter { get; } = retryAfter;

    /// <summary>The store is reachable but not set up.</summary>
    public bool NeedsOperator { get; init; }

    /// <summary>The engine's code and message when the store could not classify the error.</summary>
    public string? UnclassifiedEngineError { get; init; }
}
