namespace OrderService.Data.Relational;

/// <summary>The clean-up's delete of expired Idempotency-Keys.</summary>
public abstract partial class SqlDialect
{
    private string? _deleteExpiredKeys;

    /// <summary>
    /// Deletes at most @Limit keys created before @Before, oldest first, through the created_at index.
    /// </summary>
    public string DeleteExpiredKeys => _deleteExpiredKeys ??= BuildDeleteExpiredKeys();

    protected virtual string BuildDeleteExpiredKeys() => """
        DELETE FROM idempotency_keys WHERE key IN (
            SELECT key FROM idempotency_keys WHERE created_at < @Before ORDER BY created_at LIMIT @Limit)
        """;
}
