using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;
using OrderService.Data.Configuration;

namespace OrderService.Data.Resilience;

/// <summary>
/// The <c>Resilience</c> section: how long a store call may take in total and per attempt, how often a
/// transient fault is retried, when the circuit to the store opens and for how long, and what Retry-After
/// a 503 advertises. Validated at start-up; each failure names its key.
/// </summary>
public sealed class ResilienceOptions
{
    public const string SectionName = "Resilience";

    /// <summary>The hard bound of one store call, retries and backoff included: a client never waits longer for a 503.</summary>
    [Range(1, 300)]
    public int TotalTimeoutSeconds { get; set; } = 5;

    /// <summary>How long one attempt may run before it is abandoned (and retried, if the budget and the call allow).</summary>
    [Range(1, 300)]
    public int AttemptTimeoutSeconds { get; set; } = 2;

    /// <summary>Retries after the first attempt, for transient faults other than conflicts (0 disables them).</summary>
    [Range(0, 10)]
    public int MaxRetries { get; set; } = 2;

    /// <summary>
    /// Retries after the first attempt for a conflict the store rolled back whole (serialization failure,
    /// deadlock victim, SQLite BUSY): nothing committed, so a rerun is always safe and cheap. RepeatableRead
    /// and Serializable produce them by design under concurrency, so they get a budget of their own, larger
    /// than <see cref="MaxRetries"/>; still inside <see cref="TotalTimeoutSeconds"/> (0 disables them).
    /// </summary>
    [Range(0, 20)]
    public int MaxConflictRetries { get; set; } = 6;

    /// <summary>
    /// The base of the backoff: retry n waits a random time from 0 to base × 2^n (full jitter, so clients that
    /// failed together do not retry together), never past the total timeout.
    /// </summary>
    [Range(1, 10_000)]
    public int RetryDelayMilliseconds { get; set; } = 100;

    /// <summary>The Retry-After header (seconds) on a 503 that did not come from an open circuit (that one says the break left).</summary>
    [Range(1, 3600)]
    public int RetryAfterSeconds { get; set; } = 2;

    /// <summary>
    /// The share of attempts within the sampling window that must fail with an outage fault (unreachable,
    /// interrupted, timed out) for the circuit to open. Contention (deadlocks, serialization failures, busy) never counts.
    /// </summary>
    [Range(0.01, 1.0)]
    public double CircuitFailureRatio { get; set; } = 0.5;

    /// <summary>The fewest attempts in the window before the ratio is trusted: a handful of failures never opens the circuit.</summary>
    [Range(2, 100_000)]
    public int CircuitMinimumThroughput { get; set; } = 10;

    /// <summary>The sliding window (seconds) over which the failure ratio is measured.</summary>
    [Range(1, 3600)]
    public int CircuitSamplingSeconds { get; set; } = 10;

    /// <summary>
    /// How long an open circuit answers 503 at once, without touching the store (Retry-After says what is left).
    /// Then one call (a request or the readiness probe) goes through half-open: success closes the circuit, failure opens it again.
    /// </summary>
    [Range(1, 3600)]
    public int CircuitBreakSeconds { get; set; } = 5;
}

/// <summary>Cross-field rules; each failure names its configuration key.</summary>
public sealed class ResilienceOptionsValidator : IValidateOptions<ResilienceOptions>
{
    public ValidateOptionsResult Validate(string? name, ResilienceOptions options) =>
        options.AttemptTimeoutSeconds > options.TotalTimeoutSeconds
            ? ValidateOptionsResult.Fail(SettingError.Invalid(
                "Resilience:AttemptTimeoutSeconds", options.AttemptTimeoutSeconds,
                $"1 to {options.TotalTimeoutSeconds} (at most Resilience:TotalTimeoutSeconds)"))
            : ValidateOptionsResult.Success;
}
