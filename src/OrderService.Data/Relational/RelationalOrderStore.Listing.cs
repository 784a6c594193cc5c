using System.Data.Common;
using System.Runtime.CompilerServices;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

/// <summary>The customer listing, one keyset page at a time, in two statements.</summary>
public sealed partial class RelationalOrderStore
{
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var withStatus = query.Status is not null;
        var sql = _dialect.SelectCustomerPagePositions(withStatus, query.After is not null);
        var after = query.After.GetValueOrDefault();
        var parameters = new StatementArguments()
            .Text("CustomerId", query.CustomerId)
            .Text("Status", query.Status?.ToString())
            .Int32("Take", query.Limit + 1)
            .Value("AfterAt", _dialect.Timestamp(after.CreatedAt))
            .Value("AfterId", _dialect.Id(after.Id));

        var positions = new List<OrderPosition>(Math.Min(query.Limit + 1, 64));
        await using (var connection = await _connections.OpenReaderAsync(cancellationToken))
        using (StoreTelemetry.Command(_dialect.ProviderName, "list_by_customer.positions", sql,
            _connections.ReadIsolationInForce))
        await using (var reader = await ExecuteReaderAsync(connection, null, sql, parameters, cancellationToken))
        {
            while (await _connections.ReadAsync(connection, reader, ReadPosition, cancellationToken) is { } position)
            {
                positions.Add(position);
            }
        }

        // The rows' stream must not capture this call's token (see the port): it gets its own at enumeration.
        return OrderPage.FromLookahead(positions, query.Limit, range =>
            StreamPageAsync(query, range, CancellationToken.None));
    }

    private static OrderPosition? ReadPosition(DbDataReader row) =>
        new OrderPosition(OrderRowReader.ReadTimestamp(row, 0), row.GetGuid(1));

    private async IAsyncEnumerable<Order> StreamPageAsync(CustomerOrdersQuery query, PageRange range,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var sql = _dialect.SelectCustomerPageRange(query.Status is not null);
        var parameters = new StatementArguments()
            .Text("CustomerId", query.CustomerId)
            .Text("Status", query.Status?.ToString())
            .Value("TopAt", _dialect.Timestamp(range.Top.CreatedAt))
            .Value("TopId", _dialect.Id(range.Top.Id))
            .Value("LastAt", _dialect.Timestamp(range.Last.CreatedAt))
            .Value("LastId", _dialect.Id(range.Last.Id));

        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        await foreach (var order in QueryOrdersAsync(connection, "list_by_customer", sql, parameters,
            cancellationToken))
        {
            yield return order;
        }
    }
}
