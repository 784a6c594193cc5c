using System.Runtime.CompilerServices;
using Npgsql;
using NpgsqlTypes;
using OrderService.Data.Document;
using OrderService.Data.Orders;

namespace OrderService.Data.PostgreSql;

/// <summary>The customer listing of the document layout, one keyset page at a time (see <see cref="IOrderStore.ListByCustomerAsync"/>).</summary>
public sealed partial class DocumentOrderStore
{
    /// <summary>A keyset page: the positions-only lookahead, then the documents of its range (see the port, and RelationalOrderStore.Listing.cs for why).</summary>
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var sql = DocumentQueries.PagePositions(query.Status is not null, query.After is not null);
        var positions = new List<OrderPosition>(Math.Min(query.Limit + 1, 64));
        await using (var connection = await database.OpenAsync("document-read", cancellationToken).ConfigureAwait(false))
        await using (var command = new NpgsqlCommand(sql, connection))
        {
            AddCustomerAndStatus(command, query);
            command.Parameters.Add(new NpgsqlParameter<int>("take", NpgsqlDbType.Integer) { TypedValue = query.Limit + 1 });
            if (query.After is { } after)
            {
                AddPosition(command, "after", after);
            }

            using var activity = StoreTelemetry.Command(Provider, "document.list_by_customer.positions", sql, AutocommitIsolation);
            await using var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
            while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
            {
                positions.Add(new OrderPosition(reader.GetFieldValue<DateTimeOffset>(0), reader.GetGuid(1)));
            }
        }

        return OrderPage.FromLookahead(positions, query.Limit, range => StreamPageAsync(query, range, CancellationToken.None));
    }

    private async IAsyncEnumerable<Order> StreamPageAsync(CustomerOrdersQuery query, PageRange range, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenAsync("document-read", cancellationToken).ConfigureAwait(false);
        await using var command = new NpgsqlCommand(DocumentQueries.PageRange(query.Status is not null), connection);
        AddCustomerAndStatus(command, query);
        AddPosition(command, "top", range.Top);
        AddPosition(command, "last", range.Last);
        await foreach (var order in StreamAsync(command, "document.list_by_customer", cancellationToken).ConfigureAwait(false))
        {
            yield return order;
        }
    }

    private static void AddCustomerAndStatus(NpgsqlCommand command, CustomerOrdersQuery query)
    {
        command.Parameters.Add(new NpgsqlParameter<string>("customer_id", NpgsqlDbType.Varchar) { TypedValue = query.CustomerId });
        if (query.Status is { } status)
        {
            command.Parameters.Add(new NpgsqlParameter<string>("status", NpgsqlDbType.Varchar) { TypedValue = status.ToString() });
        }
    }

    private static void AddPosition(NpgsqlCommand command, string name, OrderPosition position)
    {
        command.Parameters.Add(new NpgsqlParameter<DateTimeOffset>(name + "_at", NpgsqlDbType.TimestampTz) { TypedValue = position.CreatedAt.ToUniversalTime() });
        command.Parameters.Add(new NpgsqlParameter<Guid>(name + "_id", NpgsqlDbType.Uuid) { TypedValue = position.Id });
    }
}
