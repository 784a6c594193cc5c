using System.ComponentModel;
using System.ComponentModel.DataAnnotations;

namespace OrderService.Data;

[Description("How long an Idempotency-Key is honoured, and the clean-up that forgets older keys. A key is honoured " +
    "for at least the retention and forgotten within the retention plus the clean-up interval; a retry after that is " +
    "a new request.")]
public sealed class IdempotencyKeyOptions
{
    /// <summary>Long enough for any client's retries, short enough that the table stays small.</summary>
    [Description("Hours an Idempotency-Key is honoured after the request that stored it.")]
    [Range(1, 8_760)]
    public int RetentionHours { get; set; } = 24;

    [Description("Seconds between two clean-ups; each deletes every key older than the retention, in batches.")]
    [Range(1, 86_400)]
    public int CleanupIntervalSeconds { get; set; } = 300;

    /// <summary>Small enough that one batch holds its locks for a few milliseconds only.</summary>
    [Description("The most keys one delete of the clean-up removes (on MongoDB: the most orders whose expired keys " +
        "one update removes); each batch is a transaction of its own.")]
    [Range(1, 10_000)]
    public int CleanupBatchSize { get; set; } = 1_000;
}
