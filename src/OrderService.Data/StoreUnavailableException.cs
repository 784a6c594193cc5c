namespace OrderService.Data;

/// <summary>
/// The store could not be reached, timed out after the bounded retries, or failed with an engine error it cannot
/// classify. The API answers 503 with Retry-After.
/// </summary>
/// <param name="retryAfter">When the store is worth asking again, if known (what is left of an open circuit's break).</param>
public sealed class StoreUnavailableException(string message, Exception? innerException = null, TimeSpan? retryAfter = null)
    : Exception(message, innerException)
{
    public TimeSpan? RetryAfter { get; } = retryAfter;

    /// <summary>
    /// The store is reachable but not set up (a database that does not exist and may not be created): only an
    /// operator can fix it, so the 503 carries this message, which /health/ready shows anyway.
    /// </summary>
    public bool NeedsOperator { get; init; }

    /// <summary>
    /// The engine's code and message (<see cref="StoreErrors.Describe"/>) when the store could not classify the
    /// error: still a store fault, but one an operator should read, so the API logs it as an error.
    /// </summary>
    public string? UnclassifiedEngineError { get; init; }
}
