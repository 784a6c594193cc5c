using OrderService.Data.Orders;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// The statements on Citus (Store:PostgreSql:Distribution=Citus), each a router plan of one task on the shard of its
/// order: a create and a transition call a function that Citus delegates to that shard's worker (Citus/*.sql),
/// and a read by id filters every table on the order id itself, never only through a correlation (which plans one task
/// per shard).
/// </summary>
public sealed partial class PostgreSqlDialect
{
    /// <inheritdoc />
    public override bool KeyDecidesCreatedOrderId => _citus;

    public override Guid CreatedOrderId(string key) => Citus.CitusOrderIds.ForCreateKey(key);

    private static string CitusCreateOrder(bool withKey) =>
        "SELECT c.id FROM orders_create(@Id, @CustomerId, @Total, @At, @Lines::jsonb, @Data::jsonb, " +
        (withKey ? "@Key, @RequestHash" : "NULL, NULL") + ") c;";

    private static string CitusTransition(OrderAction action, bool checksVersion, bool withKey)
    {
        var allowed = string.Join(", ", Transitions.AllowedFrom(action).Select(s => $"'{s}'"));
        return $"orders_transition(@Id, '{Transitions.Target(action)}', ARRAY[{allowed}]::text[], " +
            (checksVersion ? "@Expected" : "NULL") + $", '{Transitions.EventType(action)}', @At, @Data::jsonb, " +
            (withKey ? "@Key, @RequestHash" : "NULL, NULL") + ")";
    }

    protected override string BuildSelectOrderById() => _citus
        ? "SELECT o.id, o.customer_id, o.status, o.total, o.version, o.created_at, o.updated_at, " +
            $"{LinesJson("o").Replace("= o.id)", "= @Id)", StringComparison.Ordinal)} AS lines, " +
            $"{EventsJson("o").Replace("= o.id)", "= @Id)", StringComparison.Ordinal)} AS events FROM orders o WHERE o.id = @Id"
        : base.BuildSelectOrderById();

    /// <summary>On Citus a key is unique per order (the distribution column), so its lookup names the order too.</summary>
    protected override string BuildSelectIdempotencyKey() => _citus
        ? base.BuildSelectIdempotencyKey() + " AND k.order_id = @Id"
        : base.BuildSelectIdempotencyKey();

    /// <summary>
    /// On Citus a create's key is never forgotten while its order exists: the order's id is derived from it
    /// (<see cref="KeyDecidesCreatedOrderId"/>), so a create after the retention would land on that same id. A retry
    /// replays the first order instead, whatever its age. Only the steps' keys (version 2 and on) expire; a key row is
    /// named with its order, since a key is unique per order there.
    /// </summary>
    private const string CitusDeleteExpiredKeys = """
        DELETE FROM idempotency_keys WHERE (order_id, key) IN (
            SELECT order_id, key FROM idempotency_keys WHERE created_at < @Before AND version > 1 ORDER BY created_at LIMIT @Limit)
        """;
}
