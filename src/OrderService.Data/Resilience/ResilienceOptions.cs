using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;
using OrderService.Data.Configuration;

namespace OrderService.Data.Resilience;

/// <summary>
/// The <c>Resilience</c> section: how long a store call may take in total and per attempt, how often a
/// transient fault is retried, and what Retry-After a 503 advertises. Validated at start-up.
/// </summary>
public sealed class ResilienceOptions
{
    public const string SectionName = "Resilience";

    /// <summary>The hard bound of one store call, retries and backoff included: a client never waits longer for a 503.</summary>
    [Range(1, 300)]
    public int TotalTimeoutSeconds { get; set; } = 5;

    /// <summary>How long one attempt may run before it is abandoned (and retried, if the budget allows).</summary>
    [Range(1, 300)]
    public int AttemptTimeoutSeconds { get; set; } = 2;

    /// <summary>Retries after the first attempt, for transient faults only (0 disables retrying).</summary>
    [Range(0, 10)]
    public int MaxRetries { get; set; } = 2;

    /// <summary>The first backoff delay; later ones grow exponentially, with jitter so that clients do not retry in step.</summary>
    [Range(1, 10_000)]
    public int RetryDelayMilliseconds { get; set; } = 100;

    /// <summary>The Retry-After header (seconds) on a 503 answer.</summary>
    [Range(1, 3600)]
    public int RetryAfterSeconds { get; set; } = 2;
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
