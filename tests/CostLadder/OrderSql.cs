using System.Globalization;
using Npgsql;
using NpgsqlTypes;

namespace OrderService.CostLadder;

/// <summary>
/// Each workflow step as one round trip on the service's relational tables: create as one batch (PostgreSQL runs a
/// batch as one implicit transaction), a transition as one statement that checks status and version, bumps the
/// version and appends the event. The statements pgbench runs (tests/Load/pgbench/workflow.sql), minus the separate
/// SELECT ... FOR UPDATE.
/// </summary>
public sealed class OrderSql(NpgsqlDataSource dataSource) : IOrderSql
{
    private const string Schema = """
        CREATE TABLE IF NOT EXISTS customers (id varchar(64) PRIMARY KEY, created_at timestamptz NOT NULL);
        CREATE TABLE IF NOT EXISTS orders (
            id uuid PRIMARY KEY, customer_id varchar(64) NOT NULL REFERENCES customers (id), status varchar(16) NOT NULL,
            total numeric(18, 2) NOT NULL, version int NOT NULL, created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL) WITH (fillfactor = 80);
        CREATE INDEX IF NOT EXISTS ix_orders_customer_created ON orders (customer_id, created_at DESC);
        CREATE TABLE IF NOT EXISTS order_lines (
            order_id uuid NOT NULL REFERENCES orders (id), line_no int NOT NULL, sku varchar(64) NOT NULL,
            quantity int NOT NULL, unit_price numeric(18, 2) NOT NULL, PRIMARY KEY (order_id, line_no));
        CREATE TABLE IF NOT EXISTS order_events (
            order_id uuid NOT NULL REFERENCES orders (id), sequence int NOT NULL, type varchar(16) NOT NULL,
            at timestamptz NOT NULL, data jsonb NOT NULL, PRIMARY KEY (order_id, sequence));
        """;

    /// <summary>A transition as one statement; rung a-gc sends the same one through the group-commit writer.</summary>
    internal const string Move = """
        WITH moved AS (
            UPDATE orders SET status = $2, version = version + 1, updated_at = now()
            WHERE id = $1 AND status = $3 AND ($4::int IS NULL OR version = $4)
            RETURNING id, customer_id, status, total, version),
        logged AS (
            INSERT INTO order_events (order_id, sequence, type, at, data)
            SELECT id, version, status, now(), $5::jsonb FROM moved)
        SELECT id, customer_id, status, total, version FROM moved
        """;

    public void CreateSchema()
    {
        using var command = dataSource.CreateCommand(Schema);
        command.ExecuteNonQuery();
    }

    public async Task<OrderReply> CreateAsync(string customerId, IReadOnlyList<OrderLine> lines, CancellationToken cancellationToken)
    {
        var id = Guid.CreateVersion7();
        var total = lines.Sum(line => line.Quantity * line.UnitPrice);
        await using var batch = dataSource.CreateBatch();
        batch.BatchCommands.Add(Command(
            "INSERT INTO customers (id, created_at) VALUES ($1, now()) ON CONFLICT (id) DO NOTHING", customerId));
        batch.BatchCommands.Add(Command(
            "INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at) VALUES ($1, $2, 'Created', $3, 1, now(), now())",
            id, customerId, total));
        batch.BatchCommands.Add(Command(
            "INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price) SELECT $1, n, s, q, p FROM unnest($2::text[], $3::int[], $4::numeric[]) WITH ORDINALITY AS l(s, q, p, n)",
            id, lines.Select(line => line.Sku!).ToArray(), lines.Select(line => line.Quantity).ToArray(), lines.Select(line => line.UnitPrice).ToArray()));
        batch.BatchCommands.Add(Command(
            "INSERT INTO order_events (order_id, sequence, type, at, data) VALUES ($1, 1, 'Created', now(), $2::jsonb)",
            id, string.Create(CultureInfo.InvariantCulture, $"{{\"total\":{total}}}")));
        await batch.ExecuteNonQueryAsync(cancellationToken);
        return new OrderReply(id, customerId, "Created", total, 1);
    }

    public async Task<OrderReply?> MoveAsync(Guid id, Transition step, int? version, CancellationToken cancellationToken)
    {
        await using var command = dataSource.CreateCommand(Move);
        command.Parameters.Add(new NpgsqlParameter { Value = id });
        command.Parameters.Add(new NpgsqlParameter { Value = step.To });
        command.Parameters.Add(new NpgsqlParameter { Value = step.From });
        command.Parameters.Add(new NpgsqlParameter { Value = (object?)version ?? DBNull.Value, NpgsqlDbType = NpgsqlDbType.Integer });
        command.Parameters.Add(new NpgsqlParameter { Value = step.EventData });
        return await ReadOneAsync(command, cancellationToken);
    }

    public async Task<OrderReply?> FindAsync(Guid id, CancellationToken cancellationToken)
    {
        await using var command = dataSource.CreateCommand("SELECT id, customer_id, status, total, version FROM orders WHERE id = $1");
        command.Parameters.Add(new NpgsqlParameter { Value = id });
        return await ReadOneAsync(command, cancellationToken);
    }

    private static async Task<OrderReply?> ReadOneAsync(NpgsqlCommand command, CancellationToken cancellationToken)
    {
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        return await reader.ReadAsync(cancellationToken) ? ReadReply(reader) : null;
    }

    /// <summary>The reply from a row of id, customer_id, status, total, version.</summary>
    internal static OrderReply ReadReply(System.Data.Common.DbDataReader reader) =>
        new(reader.GetGuid(0), reader.GetString(1), reader.GetString(2), reader.GetDecimal(3), reader.GetInt32(4));

    private static NpgsqlBatchCommand Command(string sql, params object[] values)
    {
        var command = new NpgsqlBatchCommand(sql);
        foreach (var value in values)
        {
            command.Parameters.Add(new NpgsqlParameter { Value = value });
        }

        return command;
    }
}
