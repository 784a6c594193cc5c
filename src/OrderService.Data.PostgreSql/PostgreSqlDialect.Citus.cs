using OrderService.Data.Orders;

namespace OrderService.Data.PostgreSql;

/// <summary>The statements on Citus, each a router plan of one task on the shard of its order.</summary>
public sealed partial class PostgreSqlDialect
{
    public override Guid? CreatedOrderId(string key) => _citus ? Citus.CitusOrderIds.ForCreateKey(key) : null;

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
            $"{EventsJson("o").Replace("= o.id)", "= @Id)", StringComparison.Ordinal)} AS events FROM orders o WHERE " +
            $"o.id = @Id"
        : base.BuildSelectOrderById();

    /// <summary>On Citus a key is unique per order, so its lookup names the order too.</summary>
    protected override string BuildSelectIdempotencyKey() => _citus
        ? base.BuildSelectIdempotencyKey() + " AND k.order_id = @Id"
        : base.BuildSelectIdempotencyKey();

    private const string CitusDeleteExpiredKeys = """
        DELETE FROM idempotency_keys WHERE (order_id, key) IN (
            SELECT order_id, key FROM idempotency_keys
            WHERE created_at < @Before AND version > 1 ORDER BY created_at LIMIT @Limit)
        """;
}
