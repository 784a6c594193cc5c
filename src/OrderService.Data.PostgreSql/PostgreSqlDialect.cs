using System.Globalization;
using System.Text;
using Npgsql;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

/// <summary>PostgreSQL's words.</summary>
public sealed partial class PostgreSqlDialect(PostgreSqlDistribution distribution = PostgreSqlDistribution.None)
    : SqlDialect
{
    private readonly bool _citus = distribution == PostgreSqlDistribution.Citus;

    public override string ProviderName => PostgresDatabase.ProviderName;

    /// <summary>The wire protocol counts parameters in 16 bits.</summary>
    public override int MaxParametersPerCommand => 65_535;

    /// <summary>A uuid[]: one parameter, one plan, whatever the count.</summary>
    public override object IdSet(IReadOnlyList<Guid> ids) => ids as Guid[] ?? [.. ids];

    protected override string LinesJson(string orderAlias) =>
        "(SELECT json_agg(json_build_object('sku', l.sku, 'quantity', l.quantity, 'unitPrice', l.unit_price) ORDER " +
        "BY l.line_no) " +
        $"FROM order_lines l WHERE l.order_id = {orderAlias}.id)";

    protected override string EventsJson(string orderAlias) =>
        "(SELECT json_agg(json_build_object('sequence', e.sequence, 'type', e.type, 'at', e.at, 'data', e.data) " +
        "ORDER BY e.sequence) " +
        $"FROM order_events e WHERE e.order_id = {orderAlias}.id)";

    private static string LinesFromJson(string parameter) =>
        $"jsonb_to_recordset({parameter}::jsonb) AS l(line_no int, sku text, quantity int, unit_price numeric)";

    protected override string IdIsInSet(string column, string parameter) => $"{column} = ANY({parameter})";

    /// <summary>The whole create as ONE statement: lines and event follow only an order this call inserted.</summary>
    protected override string BuildCreateOrder(bool withIdempotencyKey)
    {
        if (_citus)
        {
            return CitusCreateOrder(withIdempotencyKey);
        }

        var sql = new StringBuilder(
            "WITH c AS (INSERT INTO customers (id, created_at) VALUES (@CustomerId, @At) ON CONFLICT (id) DO " +
            "NOTHING), ");
        if (withIdempotencyKey)
        {
            sql.Append("k AS (INSERT INTO idempotency_keys (key, request_hash, order_id, created_at) VALUES (@Key, " +
                "@RequestHash, @Id, @At) ")
                .Append("ON CONFLICT (key) DO NOTHING RETURNING order_id), ");
        }

        sql.Append("o AS (INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at) ")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT @Id, @CustomerId, '{nameof(OrderStatus.Created)}', @Total, 1, @At, @At")
            .Append(withIdempotencyKey ? " FROM k" : "").Append(" ON CONFLICT (id) DO NOTHING RETURNING id), ")
            .Append("l AS (INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price) ")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT o.id, l.line_no, l.sku, l.quantity, l.unit_price FROM o CROSS JOIN " +
                $"{LinesFromJson("@Lines")}), ")
            .Append("e AS (INSERT INTO order_events (order_id, sequence, type, at, data) ")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT o.id, 1, '{Transitions.CreatedEventType}', @At, @Data::jsonb FROM o) ")
            .Append("SELECT id FROM o;");
        return sql.ToString();
    }

    /// <summary>UPDATE and event INSERT in one statement; a stored key aborts it all (no ON CONFLICT).</summary>
    protected override string BuildTransitionWrite(OrderAction action, bool checksVersion, bool withKey) => _citus
        ? $"SELECT t.version FROM {CitusTransition(action, checksVersion, withKey)} t;"
        : WriteCtes(action, checksVersion, withKey, orderColumns: "id, version", eventColumns: "")
            + " SELECT version FROM u;";

    /// <summary>The write and the read-back as ONE statement.</summary>
    protected override string BuildTransition(OrderAction action, bool checksVersion, bool withKey) => _citus
        ? $"SELECT t.id, t.customer_id, t.status, t.total, t.version, t.created_at, t.updated_at, t.lines, t.events " +
            $"FROM {CitusTransition(action, checksVersion, withKey)} t;"
        : WriteCtes(action, checksVersion, withKey,
            orderColumns: "id, customer_id, status, total, version, created_at, updated_at",
            eventColumns: " RETURNING sequence, type, at, data") +
        " SELECT u.id, u.customer_id, u.status, u.total, u.version, u.created_at, u.updated_at, " + LinesJson("u")
            + " AS lines, " +
        "(SELECT json_agg(json_build_object('sequence', x.sequence, 'type', x.type, 'at', x.at, 'data', x.data) " +
        "ORDER BY x.sequence) " +
        "FROM (SELECT v.sequence, v.type, v.at, v.data FROM order_events v WHERE v.order_id = u.id UNION ALL SELECT " +
        "sequence, type, at, data FROM e) x) AS events " +
        "FROM u;";

    private static string WriteCtes(OrderAction action, bool checksVersion, bool withKey, string orderColumns,
        string eventColumns) =>
        $"WITH u AS (UPDATE orders SET {ConditionalWriteSet(action)} WHERE " +
        $"{ConditionalWriteFilter(action, checksVersion)} RETURNING {orderColumns}), " +
        "e AS (INSERT INTO order_events (order_id, sequence, type, at, data) " +
        $"SELECT id, version, '{Transitions.EventType(action)}', @At, @Data::jsonb FROM u{eventColumns})" +
        (withKey ? ", k AS (INSERT INTO idempotency_keys (key, request_hash, order_id, version, created_at) SELECT " +
            "@Key, @RequestHash, id, version, @At FROM u)" : "");

    /// <summary>
    /// The keys go as an array, so the store's one generic plan deletes them through the key's index.
    /// </summary>
    public override string DeleteExpiredKeys => _citus
        ? CitusDeleteExpiredKeys
        : """
            DELETE FROM idempotency_keys WHERE key = ANY(ARRAY(
                SELECT key FROM idempotency_keys WHERE created_at < @Before ORDER BY created_at LIMIT @Limit))
            """;

    /// <summary>unique_violation (23505) on idempotency_keys: the transition's key was stored meanwhile.</summary>
    public override bool IsIdempotencyKeyTaken(Exception exception) =>
        exception is PostgresException { SqlState: PostgresErrorCodes.UniqueViolation } violation
        && (violation.TableName == "idempotency_keys"
            || (_citus && violation.MessageText.Contains("\"idempotency_keys_pkey_", StringComparison.Ordinal)));
}
