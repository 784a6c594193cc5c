
namespace OrderService.Data.PostgreSql;

/// <summary>
/// The document layout's SQL for PostgreSQL (jsonb). The JSON keys written here are the camelCase names
/// of <see cref="Orders.Order"/> and <see cref="Orders.OrderEvent"/>: the document stays in the API's shape.
/// </summary>
internal static class DocumentSql
{
    public const string InsertOrder = """
        INSERT INTO order_documents (id, customer_id, status, version, created_at, document)
        VALUES (@id, @customer_id, @status, @version, @created_at, @document)
        ON CONFLICT (id) DO NOTHING
        RETURNING id
        """;

    /// <summary>
    /// The key and the order in one statement: the order row is inserted only if the key was new, so
    /// concurrent creates with one key leave one order (ON CONFLICT waits for the other inserter's commit).
    /// </summary>
    public const string InsertOrderWithKey = """
        WITH new_key AS (
            INSERT INTO order_document_keys (key, request_hash, order_id, created_at)
            VALUES (@key, @request_hash, @id, @created_at)
            ON CONFLICT (key) DO NOTHING
            RETURNING order_id)
        INSERT INTO order_documents (id, customer_id, status, version, created_at, document)
        SELECT @id, @customer_id, @status, @version, @created_at, @document FROM new_key
        ON CONFLICT (id) DO NOTHING
        RETURNING id
        """;

    // A separate statement (a fresh READ COMMITTED snapshot) after an insert that did nothing: the
    // conflicting row may have committed after the insert's snapshot was taken.
    public const string SelectByKey = """
        SELECT k.request_hash, d.document
        FROM order_document_keys k JOIN order_documents d ON d.id = k.order_id
        WHERE k.key = @key
        """;

    public const string SelectDocument = "SELECT document FROM order_documents WHERE id = @id";

    /// <summary>
    /// The transition: one conditional UPDATE, no explicit transaction. In SET, <c>version</c> is the old
    /// value, so the event's sequence is the new version. Under READ COMMITTED a concurrent winner makes
    /// PostgreSQL re-check the WHERE against the winner's row, so losers match nothing: one winner.
    /// </summary>
    public const string Transition = """
        UPDATE order_documents
        SET status = @status,
            version = version + 1,
            document = document || jsonb_build_object(
                'status', @status::text,
                'version', version + 1,
                'updatedAt', @at::text,
                'events', (document -> 'events') || jsonb_build_array(jsonb_build_object(
                    'sequence', version + 1,
                    'type', @type::text,
                    'at', @at::text,
                    'data', @data::jsonb)))
        WHERE id = @id AND status = ANY(@allowed) AND (@expected::integer IS NULL OR version = @expected)
        RETURNING document
        """;

    /// <summary>
    /// <see cref="Transition"/> with the Idempotency-Key stored in the same statement. No ON CONFLICT on the
    /// key: a key already stored (or stored by a transaction that then commits) is a unique violation that
    /// aborts the whole statement, the document update included.
    /// </summary>
    public static readonly string TransitionWithKey =
        "WITH u AS (" + Transition.Replace("RETURNING document", "RETURNING id, version, document", StringComparison.Ordinal) + "), " + """
        k AS (
            INSERT INTO order_document_keys (key, request_hash, order_id, version, created_at)
            SELECT @key, @request_hash, id, version, @key_at FROM u)
        SELECT document FROM u
        """;

    /// <summary>
    /// A stored key with its order's document. A statement of its own after the update, so it runs on a fresh
    /// READ COMMITTED snapshot: it sees the key of a concurrent retry that committed while the update waited.
    /// </summary>
    public const string SelectTransitionKey = """
        SELECT k.request_hash, k.order_id, k.version, d.document
        FROM order_document_keys k LEFT JOIN order_documents d ON d.id = k.order_id
        WHERE k.key = @key
        """;

    public const string SelectManyByArray = "SELECT document FROM order_documents WHERE id = ANY(@ids)";

    /// <summary>Serializes schema changes of concurrently starting instances (any constant; this one spells "orderdoc").</summary>
    public const string LockSchema = "SELECT pg_advisory_xact_lock(7953724170454066019)";

    public const string CreateVersionTable =
        "CREATE TABLE IF NOT EXISTS document_schema_versions (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())";

    public const string SelectSchemaVersion = "SELECT coalesce(max(version), 0) FROM document_schema_versions";

    public const string RecordSchemaVersion = "INSERT INTO document_schema_versions (version) VALUES (@version)";

    /// <summary>
    /// The clean-up's batch: at most @limit keys stored before @before, oldest first, through the index on created_at. A
    /// replica's clean-up that meets rows another one is deleting waits for that short transaction, then finds them gone.
    /// No FOR UPDATE SKIP LOCKED: Citus refuses row locks in a query over several shards.
    /// </summary>
    public const string DeleteExpiredKeys = """
        DELETE FROM order_document_keys WHERE key IN (
            SELECT key FROM order_document_keys WHERE created_at < @before ORDER BY created_at LIMIT @limit)
        """;
}
