namespace OrderService.Data.PostgreSql.Citus;

/// <summary>The document layout's statements that differ on Citus, each one task on the shard of its order.</summary>
internal static class CitusDocumentSql
{
    public const string InsertOrderWithKey =
        "SELECT c.id FROM order_documents_create(@id, @customer_id, @status, @version, @created_at, @document, @key, " +
        "@request_hash) c";

    public const string Transition =
        "SELECT t.document FROM order_documents_transition(@id, @status, @allowed::text[], @expected, @type, @at, " +
        "@data, NULL, NULL, NULL) t";

    public const string TransitionWithKey =
        "SELECT t.document FROM order_documents_transition(@id, @status, @allowed::text[], @expected, @type, @at, " +
        "@data, @key, @request_hash, @key_at) t";

    public const string SelectByKey = """
        SELECT k.request_hash, d.document
        FROM order_document_keys k JOIN order_documents d ON d.id = k.order_id AND d.id = @id
        WHERE k.key = @key AND k.order_id = @id
        """;

    public const string SelectTransitionKey = """
        SELECT k.request_hash, k.order_id, k.version, d.document
        FROM order_document_keys k LEFT JOIN order_documents d ON d.id = k.order_id AND d.id = @id
        WHERE k.key = @key AND k.order_id = @id
        """;

    /// <summary>Only the steps' keys expire on Citus: a create's key derives its order's id.</summary>
    public const string DeleteExpiredKeys = """
        DELETE FROM order_document_keys WHERE (order_id, key) IN (
            SELECT order_id, key FROM order_document_keys
            WHERE created_at < @before AND version > 1 ORDER BY created_at LIMIT @limit)
        """;
}
