using System.Data.Common;
using System.Runtime.CompilerServices;
using OrderService.Data.Orders;

namespace OrderService.Data.Document;

public sealed partial class DocumentOrderStore
{
    /// <summary>A keyset page: the positions-only lookahead, then the documents of its range.</summary>
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var sql = DocumentQueries.PagePositions(query.Status is not null, query.After is not null);
        var positions = new List<OrderPosition>(Math.Min(query.Limit + 1, 64));
        await using (var connection = await _connections.OpenReaderAsync(cancellationToken))
        await using (var command = Command(connection, null, sql))
        {
            AddCustomerAndStatus(command.Parameters, query);
            _dialect.AddInteger(command.Parameters, "take", query.Limit + 1);
            if (query.After is { } after)
            {
                AddPosition(command.Parameters, "after", after);
            }

            using var activity = StoreTelemetry.Command(_dialect.ProviderName, "document.list_by_customer.positions",
                sql, _connections.ReadIsolationInForce);
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await _connections.ReadAsync(connection, reader, ReadPosition, cancellationToken) is { } position)
            {
                positions.Add(position);
            }
        }

        return OrderPage.FromLookahead(positions, query.Limit, range =>
            StreamPageAsync(query, range, CancellationToken.None));
    }

    private static OrderPosition? ReadPosition(DbDataReader row) =>
        new OrderPosition(Relational.OrderRowReader.ReadTimestamp(row, 0), row.GetGuid(1));

    private async IAsyncEnumerable<Order> StreamPageAsync(CustomerOrdersQuery query, PageRange range,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        await using var command = Command(connection, null, DocumentQueries.PageRange(query.Status is not null));
        AddCustomerAndStatus(command.Parameters, query);
        AddPosition(command.Parameters, "top", range.Top);
        AddPosition(command.Parameters, "last", range.Last);
        await foreach (var order in StreamAsync(command, "document.list_by_customer", cancellationToken))
        {
            yield return order;
        }
    }

    private void AddCustomerAndStatus(DbParameterCollection parameters, CustomerOrdersQuery query)
    {
        _dialect.AddText(parameters, "customer_id", query.CustomerId);
        if (query.Status is { } status)
        {
            _dialect.AddText(parameters, "status", status.ToString());
        }
    }

    private void AddPosition(DbParameterCollection parameters, string name, OrderPosition position)
    {
        _dialect.AddTimestamp(parameters, name + "_at", position.CreatedAt);
        _dialect.AddId(parameters, name + "_id", position.Id);
    }
}
