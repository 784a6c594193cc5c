using System.Text;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

/// <summary>
/// SQLite's words: ids and timestamps as sortable text, JSON through json_group_array/json_each, and a
/// transition write in three statements (SQLite has no data-modifying CTE). The statements of a write
/// all run inside one transaction on the single writer, so nothing can slip in between them.
/// </summary>
public sealed class SqliteDialect(ReadIsolation readIsolation) : SqlDialect(readIsolation)
{
    public override string ProviderName => SqliteDatabase.ProviderName;

    /// <summary>SQLITE_MAX_VARIABLE_NUMBER is 32,766 since SQLite 3.32.</summary>
    public override int MaxParametersPerCommand => 32_766;

    public override object Id(Guid id) => id.ToString("D");

    public override object Timestamp(DateTimeOffset at) => Timestamps.ToText(at);

    /// <summary>A JSON array of the canonical id texts, read with json_each.</summary>
    public override object IdSet(IReadOnlyList<Guid> ids)
    {
        var json = new StringBuilder((ids.Count * 39) + 2).Append('[');
        for (var i = 0; i < ids.Count; i++)
        {
            json.Append(i == 0 ? "\"" : ",\"").Append(ids[i].ToString("D")).Append('"');
        }

        return json.Append(']').ToString();
    }

    protected override string LinesJson(string orderAlias) =>
        "(SELECT json_group_array(json_object('sku', l.sku, 'quantity', l.quantity, 'unitPrice', l.unit_price) ORDER BY l.line_no) " +
        $"FROM order_lines l WHERE l.order_id = {orderAlias}.id)";

    protected override string EventsJson(string orderAlias) =>
        "(SELECT json_group_array(json_object('sequence', e.sequence, 'type', e.type, 'at', e.at, 'data', json(e.data)) ORDER BY e.sequence) " +
        $"FROM order_events e WHERE e.order_id = {orderAlias}.id)";

    protected override string LinesFromJson(string parameter) =>
        "(SELECT j.value ->> 'line_no' AS line_no, j.value ->> 'sku' AS sku, j.value ->> 'quantity' AS quantity, " +
        $"j.value ->> 'unit_price' AS unit_price FROM json_each({parameter}) j) l";

    protected override string IdIsInSet(string column, string parameter) => $"{column} IN (SELECT value FROM json_each({parameter}))";

    /// <summary>
    /// UPDATE, then the event INSERT only if the UPDATE changed the row (changes() = 1), then the version
    /// only if the INSERT happened. A failing INSERT (a duplicate sequence) throws, and the writer rolls
    /// back the UPDATE with it.
    /// </summary>
    protected override string BuildTransitionWrite(OrderAction action, bool checksVersion) =>
        $"UPDATE orders SET {ConditionalWriteSet(action)} WHERE {ConditionalWriteFilter(action, checksVersion)};\n" +
        "INSERT INTO order_events (order_id, sequence, type, at, data) " +
        $"SELECT id, version, '{Transitions.EventType(action)}', @At, @Data FROM orders WHERE id = @Id AND changes() = 1;\n" +
        "SELECT version FROM orders WHERE id = @Id AND changes() = 1;";
}
