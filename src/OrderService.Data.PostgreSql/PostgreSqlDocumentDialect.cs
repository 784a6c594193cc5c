using System.Data.Common;
using Npgsql;
using NpgsqlTypes;
using OrderService.Data.Document;
using OrderService.Data.Orders;
using OrderService.Data.PostgreSql.Citus;

namespace OrderService.Data.PostgreSql;

/// <summary>The document layout's SQL for PostgreSQL, on plain PostgreSQL and on Citus.</summary>
public sealed class PostgreSqlDocumentDialect(PostgreSqlDistribution distribution) : DocumentDialect
{
    private const string InsertOrderWithKey = """
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

    private const string Transition = """
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

    private static readonly string TransitionWithKey =
        "WITH u AS (" + Transition.Replace("RETURNING document", "RETURNING id, version, document",
            StringComparison.Ordinal) + "), " + """
        k AS (
            INSERT INTO order_document_keys (key, request_hash, order_id, version, created_at)
            SELECT @key, @request_hash, id, version, @key_at FROM u)
        SELECT document FROM u
        """;

    private readonly bool _citus = distribution == PostgreSqlDistribution.Citus;

    public override string ProviderName => PostgresDatabase.ProviderName;

    public override IReadOnlyList<string> CreateStatements(bool withKey) =>
        [withKey ? (_citus ? CitusDocumentSql.InsertOrderWithKey : InsertOrderWithKey) : InsertOrder];

    public override IReadOnlyList<string> TransitionStatements(TransitionCommand command) =>
        [(command.IdempotencyKey is null, _citus) switch
        {
            (true, false) => Transition,
            (true, true) => CitusDocumentSql.Transition,
            (false, false) => TransitionWithKey,
            (false, true) => CitusDocumentSql.TransitionWithKey,
        }];

    public override string SelectCreateKey => _citus ? CitusDocumentSql.SelectByKey : base.SelectCreateKey;

    public override string SelectTransitionKey =>
        _citus ? CitusDocumentSql.SelectTransitionKey : base.SelectTransitionKey;

    public override string SelectManyByIdSet => "SELECT document FROM order_documents WHERE id = ANY(@ids)";

    /// <summary>
    /// Another replica's clean-up only delays this one; no SKIP LOCKED: Citus refuses row locks over several shards.
    /// An array, not IN: IN's semi-join reads the whole table under the generic plan.
    /// </summary>
    public override string DeleteExpiredKeys => _citus ? CitusDocumentSql.DeleteExpiredKeys : """
        DELETE FROM order_document_keys WHERE key = ANY(ARRAY(
            SELECT key FROM order_document_keys WHERE created_at < @before ORDER BY created_at LIMIT @limit))
        """;

    public override Guid? CreatedOrderId(string key) => _citus ? CitusOrderIds.ForCreateKey(key) : null;

    // Citus relays a worker's error without the table's name: there the shard's constraint is named in the message.
    public override bool IsKeyTaken(DbException exception) =>
        exception is PostgresException { SqlState: PostgresErrorCodes.UniqueViolation } violation
        && (violation.TableName == "order_document_keys"
            || (_citus && violation.MessageText.Contains("\"order_document_keys_pkey_", StringComparison.Ordinal)));

    /// <summary>Also <c>@allowed</c>, the statuses the step may leave.</summary>
    protected override void AddExpectedVersion(DbParameterCollection parameters, TransitionCommand command)
    {
        parameters.Add(new NpgsqlParameter("expected", NpgsqlDbType.Integer) { Value =
            command.ExpectedVersion is { } v ? v : DBNull.Value });
        parameters.Add(new NpgsqlParameter<string[]>("allowed", NpgsqlDbType.Array | NpgsqlDbType.Varchar)
        {
            TypedValue = [.. Transitions.AllowedFrom(command.Action).Select(status => status.ToString())],
        });
    }

    public override void AddId(DbParameterCollection parameters, string name, Guid id) =>
        parameters.Add(new NpgsqlParameter<Guid>(name, NpgsqlDbType.Uuid) { TypedValue = id });

    public override void AddText(DbParameterCollection parameters, string name, string value) =>
        parameters.Add(new NpgsqlParameter<string>(name, NpgsqlDbType.Varchar) { TypedValue = value });

    protected override void AddDocument(DbParameterCollection parameters, string name, string json) =>
        parameters.Add(new NpgsqlParameter<string>(name, NpgsqlDbType.Jsonb) { TypedValue = json });

    public override void AddInteger(DbParameterCollection parameters, string name, int value) =>
        parameters.Add(new NpgsqlParameter<int>(name, NpgsqlDbType.Integer) { TypedValue = value });

    public override void AddTimestamp(DbParameterCollection parameters, string name, DateTimeOffset at) =>
        parameters.Add(new NpgsqlParameter<DateTimeOffset>(name, NpgsqlDbType.TimestampTz) { TypedValue =
            at.ToUniversalTime() });

    public override void AddIdSet(DbParameterCollection parameters, Guid[] ids) =>
        parameters.Add(new NpgsqlParameter<Guid[]>("ids", NpgsqlDbType.Array | NpgsqlDbType.Uuid) { TypedValue = ids });

    public override void AddIdList(DbParameterCollection parameters, Guid[] ids)
    {
        foreach (var id in ids)
        {
            parameters.Add(new NpgsqlParameter<Guid> { NpgsqlDbType = NpgsqlDbType.Uuid, TypedValue = id });
        }
    }

    /// <summary>On Citus a key is unique per order: its look-up names the order (<c>@id</c>).</summary>
    public override void AddKeyLookup(DbParameterCollection parameters, string key, Guid orderId)
    {
        AddText(parameters, "key", key);
        if (_citus)
        {
            AddId(parameters, "id", orderId);
        }
    }
}
