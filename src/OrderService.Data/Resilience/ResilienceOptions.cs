using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using Microsoft.Extensions.Options;

namespace OrderService.Data.Resilience;

[Description("The resilience pipeline around every store call: timeouts, retries, the circuit breaker and the 503's " +
    "Retry-After.")]
public sealed class ResilienceOptions : IValidatableObject
{
    public const string SectionName = "Resilience";

    [Description("The hard bound of one store call, retries and backoff included: a client never waits longer for a " +
        "503.")]
    [Range(1, 300)]
    public int TotalTimeoutSeconds { get; set; } = 5;

    [Description("How long one attempt may run before it is abandoned (and retried, if the budget and the call " +
        "allow); at most Resilience:TotalTimeoutSeconds.")]
    [Range(1, 300)]
    public int AttemptTimeoutSeconds { get; set; } = 2;

    [Description("Retries after the first attempt for transient faults other than conflicts (lost or refused " +
        "connections, timeouts; a write only when a rerun is safe); 0 disables them.")]
    [Range(0, 10)]
    public int MaxRetries { get; set; } = 2;

    /// <summary>Nothing committed in such a conflict, so a rerun is always safe and cheap.</summary>
    [Description("Retries after the first attempt for a conflict the store rolled back whole (serialization failure, " +
        "deadlock victim, SQLite BUSY), within the total timeout; 0 disables them.")]
    [Range(0, 20)]
    public int MaxConflictRetries { get; set; } = 6;

    /// <summary>Full jitter, so that clients that failed together do not retry together.</summary>
    [Description("The base of the backoff: retry n waits a random time from 0 to base × 2^n, never past the total " +
        "timeout.")]
    [Range(1, 10_000)]
    public int RetryDelayMilliseconds { get; set; } = 100;

    [Description("The Retry-After header (seconds) of a 503 that did not come from an open circuit (that one says " +
        "how much of the break is left).")]
    [Range(1, 3600)]
    public int RetryAfterSeconds { get; set; } = 2;

    [Description("The share of attempts in the sampling window that must fail with an outage fault (unreachable, " +
        "interrupted, timed out) for the circuit to open; contention never counts.")]
    [Range(0.01, 1.0)]
    public double CircuitFailureRatio { get; set; } = 0.5;

    [Description("The fewest attempts in the window before the ratio is trusted: a handful of failures never opens " +
        "the circuit.")]
    [Range(2, 100_000)]
    public int CircuitMinimumThroughput { get; set; } = 10;

    [Description("The sliding window (seconds) over which the failure ratio is measured.")]
    [Range(1, 3600)]
    public int CircuitSamplingSeconds { get; set; } = 10;

    [Description("How long an open circuit answers 503 at once without touching the store; then one call goes " +
        "through half-open: success closes the circuit, failure opens it again.")]
    [Range(1, 3600)]
    public int CircuitBreakSeconds { get; set; } = 5;

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (AttemptTimeoutSeconds > TotalTimeoutSeconds)
        {
            yield return new ValidationResult(string.Create(CultureInfo.InvariantCulture,
                $"Invalid setting Resilience:AttemptTimeoutSeconds = \"{AttemptTimeoutSeconds}\"; allowed: 1 to " +
                $"{TotalTimeoutSeconds} (at most Resilience:TotalTimeoutSeconds)."), [nameof(AttemptTimeoutSeconds)]);
        }
    }
}

/// <summary>Checks <see cref="ResilienceOptions"/> against its data annotations and its cross-key rule.</summary>
[OptionsValidator]
public sealed partial class ResilienceOptionsValidator : IValidateOptions<ResilienceOptions>;
