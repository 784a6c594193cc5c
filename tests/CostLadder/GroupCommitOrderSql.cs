using System.Data.Common;
using System.Globalization;
using Npgsql;
using NpgsqlTypes;
using OrderService.Data.PostgreSql;
using OrderService.Data.Relational;

namespace OrderService.CostLadder;

/// <summary>
/// Rung a-gc's SQL: rung a's writes sent through the store's own group-commit writer (<see cref="PostgresGroupCommit"/>,
/// as <see cref="PostgresDatabase.GroupCommit"/> starts it with the store's default settings), so that concurrent
/// requests share one batch and one commit. The writer takes one statement per write, so the create is rung a's four
/// inserts as one statement of data-modifying CTEs (as the store's own create). A group the server rolled back is run
/// statement by statement, as the store does.
/// </summary>
public sealed class GroupCommitOrderSql(PostgresDatabase database) : IOrderSql
{
    private const string Create = """
        WITH c AS (INSERT INTO customers (id, created_at) VALUES ($2, now()) ON CONFLICT (id) DO NOTHING),
        o AS (INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at)
            VALUES ($1, $2, 'Created', $3, 1, now(), now()) RETURNING id),
        l AS (INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price)
            SELECT o.id, n, s, q, p FROM o CROSS JOIN unnest($4::text[], $5::int[], $6::numeric[]) WITH ORDINALITY AS l(s, q, p, n)),
        e AS (INSERT INTO order_events (order_id, sequence, type, at, data) SELECT o.id, 1, 'Created', now(), $7::jsonb FROM o)
        SELECT id FROM o
        """;

    private readonly OrderSql _reads = new(database.DataSource);
    private readonly IGroupCommit _writer = database.GroupCommit
        ?? throw new InvalidOperationException("The store's default settings have group commit on; here it is off.");

    public async Task<OrderReply> CreateAsync(string customerId, IReadOnlyList<OrderLine> lines, CancellationToken cancellationToken)
    {
        var id = Guid.CreateVersion7();
        var total = lines.Sum(line => line.Quantity * line.UnitPrice);
        var values = new PositionalValues(
            id, customerId, total, lines.Select(line => line.Sku!).ToArray(), lines.Select(line => line.Quantity).ToArray(),
            lines.Select(line => line.UnitPrice).ToArray(), string.Create(CultureInfo.InvariantCulture, $"{{\"total\":{total}}}"));
        var grouped = await _writer.ExecuteAsync(new GroupedStatement(Create, id, values), static reader => reader.GetGuid(0), cancellationToken);
        if (!grouped.RanInGroup)
        {
            await RunAloneAsync(Create, values, static _ => true, cancellationToken);
        }

        return new OrderReply(id, customerId, "Created", total, 1);
    }

    public async Task<OrderReply?> MoveAsync(Guid id, Transition step, int? version, CancellationToken cancellationToken)
    {
        var values = new PositionalValues(id, step.To, step.From, (object?)version ?? PositionalValues.NullInteger, step.EventData);
        var grouped = await _writer.ExecuteAsync(new GroupedStatement(OrderSql.Move, id, values), OrderSql.ReadReply, cancellationToken);
        return grouped.RanInGroup
            ? grouped.Row
            : await RunAloneAsync(OrderSql.Move, values, OrderSql.ReadReply, cancellationToken);
    }

    public Task<OrderReply?> FindAsync(Guid id, CancellationToken cancellationToken) => _reads.FindAsync(id, cancellationToken);

    private async Task<T?> RunAloneAsync<T>(string sql, PositionalValues values, Func<DbDataReader, T> readRow, CancellationToken cancellationToken)
    {
        await using var batch = database.DataSource.CreateBatch();
        var command = batch.CreateBatchCommand();
        command.CommandText = sql;
        values.AddTo(new ParameterTarget(command));
        batch.BatchCommands.Add(command);
        await using var reader = await batch.ExecuteReaderAsync(cancellationToken);
        return await reader.ReadAsync(cancellationToken) ? readRow(reader) : default;
    }

    /// <summary>A statement's values for $1, $2, ... in order, bound afresh for each command that sends them.</summary>
    private sealed class PositionalValues(params object[] values) : IStatementParameters
    {
        /// <summary>An absent If-Match: a null the server reads as an integer.</summary>
        public static readonly object NullInteger = new();

        public void AddTo(ParameterTarget target)
        {
            foreach (var value in values)
            {
                target.Parameters.Add(value == NullInteger
                    ? new NpgsqlParameter { Value = DBNull.Value, NpgsqlDbType = NpgsqlDbType.Integer }
                    : new NpgsqlParameter { Value = value });
            }
        }
    }
}
