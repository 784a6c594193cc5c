using Microsoft.Data.Sqlite;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

/// <summary>SQLite's words.</summary>
public sealed class SqliteDialect(ReadIsolation readIsolation) : SqlDialect(readIsolation)
{
    public override string ProviderName => SqliteDatabase.ProviderName;

    /// <summary>SQLITE_MAX_VARIABLE_NUMBER is 32,766 since SQLite 3.32.</summary>
    public override int MaxParametersPerCommand => 32_766;

    public override object Id(Guid id) => id.ToString("D");

    public override object Timestamp(DateTimeOffset at) => Timestamps.ToText(at);

    /// <summary>A JSON array of the canonical id texts, read with json_each.</summary>
    public override object IdSet(IReadOnlyList<Guid> ids) =>
        ids.Count == 0 ? "[]" : string.Create((ids.Count * IdSetItemLength) + 1, ids, static (json, ids) =>
    {
        // ["…","…"]: written in place, one string (a StringBuilder and a string per id otherwise).
        json[0] = '[';
        for (var i = 0; i < ids.Count; i++)
        {
            var item = json.Slice(1 + (i * IdSetItemLength), IdSetItemLength);
            item[0] = '"';
            ids[i].TryFormat(item[1..], out _, "D");
            item[37] = '"';
            item[38] = i == ids.Count - 1 ? ']' : ',';
        }
    });

    private const int IdSetItemLength = 39;

    protected override string LinesJson(string orderAlias) =>
        "(SELECT json_group_array(json_object('sku', l.sku, 'quantity', l.quantity, 'unitPrice', l.unit_price) ORDER " +
        "BY l.line_no) " +
        $"FROM order_lines l WHERE l.order_id = {orderAlias}.id)";

    protected override string EventsJson(string orderAlias) =>
        "(SELECT json_group_array(json_object('sequence', e.sequence, 'type', e.type, 'at', e.at, 'data', " +
        "json(e.data)) ORDER BY e.sequence) " +
        $"FROM order_events e WHERE e.order_id = {orderAlias}.id)";

    protected override string LinesFromJson(string parameter) =>
        "(SELECT j.value ->> 'line_no' AS line_no, j.value ->> 'sku' AS sku, j.value ->> 'quantity' AS quantity, " +
        $"j.value ->> 'unit_price' AS unit_price FROM json_each({parameter}) j) l";

    protected override string IdIsInSet(string column, string parameter) =>
        $"{column} IN (SELECT value FROM json_each({parameter}))";

    /// <summary>UPDATE; the event INSERT only if the row changed; the version only if the INSERT ran.</summary>
    protected override string BuildTransitionWrite(OrderAction action, bool checksVersion, bool withKey) =>
        WriteStatements(action, checksVersion, withKey)
            + "SELECT version FROM orders WHERE id = @Id AND changes() = 1;";

    /// <summary>The write, then the order row itself only if the write happened.</summary>
    protected override string BuildTransition(OrderAction action, bool checksVersion, bool withKey) =>
        WriteStatements(action, checksVersion, withKey) + BuildSelectOrderById() + " AND changes() = 1;";

    /// <inheritdoc />
    public override bool TransitionReturnsWrittenOrder => true;

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

    /// <summary>The guard above prevents a collision; should one happen, the engine answers from the key.</summary>
    public override bool IsIdempotencyKeyTaken(Exception exception) =>
        exception is SqliteException { SqliteErrorCode: ConstraintViolation } sqlite
        && sqlite.Message.Contains("idempotency_keys.key", StringComparison.Ordinal);

    private const int ConstraintViolation = 19;
}
