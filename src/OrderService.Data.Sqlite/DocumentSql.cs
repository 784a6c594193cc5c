using System.Collections.Frozen;
using OrderService.Data.Orders;

namespace OrderService.Data.Sqlite;

/// <summary>
/// The document layout's SQL for SQLite (TEXT JSON, edited in place with json_set). The JSON keys are the
/// camelCase names of <see cref="Order"/> and <see cref="OrderEvent"/>: the document stays in the API's shape.
/// </summary>
internal static class DocumentSql
{
    public const string InsertKey = """
        INSERT INTO order_document_keys (key, request_hash, order_id, created_at)
        VALUES (@key, @request_hash, @id, @created_at)
        ON CONFLICT (key) DO NOTHING
        """;

    public const string InsertOrder = """
        INSERT INTO order_documents (id, customer_id, status, version, created_at, document)
        VALUES (@id, @customer_id, @status, @version, @created_at, @document)
        ON CONFLICT (id) DO NOTHING
        """;

    public const string SelectByKey = """
        SELECT k.request_hash, d.document
        FROM order_document_keys k JOIN order_documents d ON d.id = k.order_id
        WHERE k.key = @key
        """;

    public const string SelectDocument = "SELECT document FROM order_documents WHERE id = @id";

    public const string SelectManyByJson = "SELECT document FROM order_documents WHERE id IN (SELECT value FROM json_each(@ids))";

    public const string CreateVersionTable =
        "CREATE TABLE IF NOT EXISTS document_schema_versions (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)";

    public const string SelectSchemaVersion = "SELECT coalesce(max(version), 0) FROM document_schema_versions";

    public const string RecordSchemaVersion = "INSERT INTO document_schema_versions (version, applied_at) VALUES (@version, @applied_at)";

    /// <summary>One statement per action, with that action's allowed statuses written into the WHERE.</summary>
    public static readonly FrozenDictionary<OrderAction, string> Transition =
        Enum.GetValues<OrderAction>().ToFrozenDictionary(action => action, TransitionFor);

    /// <summary>
    /// <see cref="Transition"/> guarded by the Idempotency-Key's absence, returning the new version too (the
    /// key's row records it). Every write runs on the one writer, so the guard sees every key stored before
    /// it, and <see cref="InsertTransitionKey"/>, in the same savepoint, can never collide.
    /// </summary>
    public static readonly FrozenDictionary<OrderAction, string> TransitionWithKey =
        Enum.GetValues<OrderAction>().ToFrozenDictionary(action => action, action => TransitionFor(action)
            .Replace("RETURNING document", "AND NOT EXISTS (SELECT 1 FROM order_document_keys k WHERE k.key = @key)\nRETURNING document, version", StringComparison.Ordinal));

    public const string InsertTransitionKey = """
        INSERT INTO order_document_keys (key, request_hash, order_id, version, created_at)
        VALUES (@key, @request_hash, @id, @version, @created_at)
        """;

    /// <summary>A stored key with its order's document (read on the writer: committed, or earlier in the same group).</summary>
    public const string SelectTransitionKey = """
        SELECT k.request_hash, k.order_id, k.version, d.document
        FROM order_document_keys k LEFT JOIN order_documents d ON d.id = k.order_id
        WHERE k.key = @key
        """;

    /// <summary>
    /// The transition: one conditional UPDATE. SQLite evaluates every SET expression against the old row,
    /// so <c>version + 1</c> is the new version in the column, the document and the event's sequence alike;
    /// '$.events[#]' appends to the embedded array. The allowed statuses are literals from
    /// <see cref="Transitions.AllowedFrom"/> (enum names, so nothing to escape).
    /// </summary>
    private static string TransitionFor(OrderAction action)
    {
        var allowed = string.Join(", ", Transitions.AllowedFrom(action).Select(status => $"'{status}'"));
        return $"""
            UPDATE order_documents
            SET status = @status,
                version = version + 1,
                document = json_set(document,
                    '$.status', @status,
                    '$.version', version + 1,
                    '$.updatedAt', @at,
                    '$.events[#]', json_object(
                        'sequence', version + 1,
                        'type', @type,
                        'at', @at,
                        'data', json(@data)))
            WHERE id = @id AND status IN ({allowed}) AND (@expected IS NULL OR version = @expected)
            RETURNING document
            """;
    }

    /// <summary>The clean-up's batch: at most @limit keys stored before @before, oldest first, through the index on created_at (SQLite has one writer: nothing to skip).</summary>
    public const string DeleteExpiredKeys = """
        DELETE FROM order_document_keys WHERE key IN (
            SELECT key FROM order_document_keys WHERE created_at < @before ORDER BY created_at LIMIT @limit)
        """;
}
