using Microsoft.Data.Sqlite;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

/// <summary>SQLite's words.</summary>
public sealed class SqliteDialect : SqlDialect
{
    public override string ProviderName => SqliteDatabase.ProviderName;

    /// <summary>SQLITE_MAX_VARIABLE_NUMBER is 32,766 since SQLite 3.32.</summary>
    public override int MaxParametersPerCommand => 32_766;

    public override object Id(Guid id) => id.ToString("D");

    public override object Timestamp(DateTimeOffset at) => Timestamps.ToText(at);

    protected override string LinesJson(string orderAlias) =>
        "(SELECT json_group_array(json_object('sku', l.sku, 'quantity', l.quantity, 'unitPrice', l.unit_price) ORDER " +
        "BY l.line_no) " +
        $"FROM order_lines l WHERE l.order_id = {orderAlias}.id)";

    protected override string EventsJson(string orderAlias) =>
        "(SELECT json_group_array(json_object('sequence', e.sequence, 'type', e.type, 'at', e.at, 'data', " +
        "json(e.data)) ORDER BY e.sequence) " +
        $"FROM order_events e WHERE e.order_id = {orderAlias}.id)";

    protected override string IdIsInSet(string column, string parameter) =>
        $"{column} IN (SELECT value FROM json_each({parameter}))";

    /// <summary>
    /// Every insert skips a duplicate instead of failing, so a retried create or a known key is harmless; the lines and
    /// the event follow the order only when it exists.
    /// </summary>
    protected override string BuildCreateOrder(bool withIdempotencyKey)
    {
        const string orderExists = "EXISTS (SELECT 1 FROM orders x WHERE x.id = @Id)";
        var ownsKey = withIdempotencyKey
            ? "EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.key = @Key AND k.order_id = @Id)"
            : "1 = 1";
        return "INSERT INTO customers (id, created_at) SELECT @CustomerId, @At WHERE 1 = 1 " +
            "ON CONFLICT (id) DO NOTHING;\n" +
            (withIdempotencyKey
                ? "INSERT INTO idempotency_keys (key, request_hash, order_id, created_at) SELECT @Key, @RequestHash, " +
                  "@Id, @At WHERE 1 = 1 ON CONFLICT (key) DO NOTHING;\n"
                : "") +
            "INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at) SELECT @Id, " +
            $"@CustomerId, '{nameof(OrderStatus.Created)}', @Total, 1, @At, @At WHERE {ownsKey} " +
            "ON CONFLICT (id) DO NOTHING RETURNING id;\n" +
            "INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price) SELECT @Id, l.line_no, l.sku, " +
            "l.quantity, l.unit_price FROM (SELECT j.value ->> 'line_no' AS line_no, j.value ->> 'sku' AS sku, " +
            "j.value ->> 'quantity' AS quantity, j.value ->> 'unit_price' AS unit_price FROM json_each(@Lines) j) l " +
            $"WHERE {orderExists} ON CONFLICT (order_id, line_no) DO NOTHING;\n" +
            "INSERT INTO order_events (order_id, sequence, type, at, data) " +
            $"SELECT @Id, 1, '{Transitions.CreatedEventType}', @At, @Data WHERE {orderExists} " +
            "ON CONFLICT (order_id, sequence) DO NOTHING;";
    }

    /// <summary>UPDATE; the event INSERT only if the row changed; the version only if the INSERT ran.</summary>
    protected override string BuildTransitionWrite(OrderAction action, bool checksVersion, bool withKey) =>
        WriteStatements(action, checksVersion, withKey)
            + "SELECT version FROM orders WHERE id = @Id AND changes() = 1;";

    /// <summary>The write, then the order row itself only if the write happened.</summary>
    protected override string BuildTransition(OrderAction action, bool checksVersion, bool withKey) =>
        WriteStatements(action, checksVersion, withKey) + BuildSelectOrderById() + " AND changes() = 1;";

    private string WriteStatements(OrderAction action, bool checksVersion, bool withKey) =>
        $"UPDATE orders SET {ConditionalWriteSet(action)} WHERE {ConditionalWriteFilter(action, checksVersion)}" +
        (withKey ? " AND NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.key = @Key)" : "") + ";\n" +
        "INSERT INTO order_events (order_id, sequence, type, at, data) " +
        $"SELECT id, version, '{Transitions.EventType(action)}', @At, @Data FROM orders WHERE id = @Id AND changes() " +
        $"= 1;\n" +
        (withKey
            ? "INSERT INTO idempotency_keys (key, request_hash, order_id, version, created_at) " +
              "SELECT @Key, @RequestHash, id, version, @At FROM orders WHERE id = @Id AND changes() = 1;\n"
            : "");

    public override string DeleteExpiredKeys => """
        DELETE FROM idempotency_keys WHERE key IN (
            SELECT key FROM idempotency_keys WHERE created_at < @Before ORDER BY created_at LIMIT @Limit)
        """;

    /// <summary>The guard above prevents a collision; should one happen, the engine answers from the key.</summary>
    public override bool IsIdempotencyKeyTaken(Exception exception) =>
        exception is SqliteException { SqliteErrorCode: ConstraintViolation } sqlite
        && sqlite.Message.Contains("idempotency_keys.key", StringComparison.Ordinal);

    private const int ConstraintViolation = 19;
}
