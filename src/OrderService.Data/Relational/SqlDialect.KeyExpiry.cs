namespace OrderService.Data.Relational;

/// <summary>The clean-up's delete of expired Idempotency-Keys (<see cref="IOrderStore.ForgetKeysStoredBeforeAsync"/>).</summary>
public abstract partial class SqlDialect
{
    private string? _deleteExpiredKeys;

    /// <summary>
    /// Deletes at most @Limit idempotency_keys rows whose created_at is before @Before, oldest first, through the index on
    /// created_at: a short write whatever the table's size. The row count is the answer. A replica's clean-up that meets
    /// rows another one is deleting waits for that short transaction, then finds them gone (PostgreSQL and SQLite; no
    /// FOR UPDATE SKIP LOCKED on PostgreSQL: Citus refuses row locks in a query over several shards).
    /// </summary>
    public string DeleteExpiredKeys => _deleteExpiredKeys ??= BuildDeleteExpiredKeys();

    protected virtual string BuildDeleteExpiredKeys() => """
        DELETE FROM idempotency_keys WHERE key IN (
            SELECT key FROM idempotency_keys WHERE created_at < @Before ORDER BY created_at LIMIT @Limit)
        """;
}
