namespace OrderService.Data;

/// <summary>
/// The store could not be reached, timed out, or failed unclassified: the API answers 503 with Retry-After.
/// </summary>
public sealed class StoreUnavailableException(string message, Exception? innerException = null, TimeSpan? retryAfter =
    null)
    : Exception(message, innerException)
{
    public TimeSpan? RetryAfter { get; } = retryAfter;

    /// <summary>The store is reachable but not set up: only an operator can fix it, so the 503 says so.</summary>
    public bool NeedsOperator { get; init; }

    /// <summary>The engine's code and message of an unclassified error; the API logs it as an error.</summary>
    public string? UnclassifiedEngineError { get; init; }
}
