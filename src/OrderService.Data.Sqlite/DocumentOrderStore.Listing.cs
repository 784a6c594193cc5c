using System.Runtime.CompilerServices;
using Microsoft.Data.Sqlite;
using OrderService.Data.Document;
using OrderService.Data.Orders;

namespace OrderService.Data.Sqlite;

/// <summary>The customer listing of the document layout, one keyset page at a time (see <see cref="IOrderStore.ListByCustomerAsync"/>).</summary>
public sealed partial class DocumentOrderStore
{
    /// <summary>A keyset page: the positions-only lookahead, then the documents of its range (see the port, and RelationalOrderStore.Listing.cs for why).</summary>
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var positions = new List<OrderPosition>(Math.Min(query.Limit + 1, 64));
        using (var connection = database.OpenReader())
        using (var command = connection.CreateCommand())
        {
            command.CommandText = DocumentQueries.PagePositions(query.Status is not null, query.After is not null);
            AddCustomerAndStatus(command, query);
            command.Parameters.AddWithValue("@take", query.Limit + 1);
            if (query.After is { } after)
            {
                AddPosition(command, "@after", after);
            }

            using var activity = StoreTelemetry.Command(Provider, "document.list_by_customer.positions", command.CommandText, _readIsolation);
            await using var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
            while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
            {
                positions.Add(new OrderPosition(reader.GetFieldValue<DateTimeOffset>(0).ToUniversalTime(), Guid.Parse(reader.GetString(1))));
            }
        }

        return OrderPage.FromLookahead(positions, query.Limit, range => StreamPageAsync(query, range, CancellationToken.None));
    }

    private async IAsyncEnumerable<Order> StreamPageAsync(CustomerOrdersQuery query, PageRange range, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var connection = database.OpenReader();
        using var command = connection.CreateCommand();
        command.CommandText = DocumentQueries.PageRange(query.Status is not null);
        AddCustomerAndStatus(command, query);
        AddPosition(command, "@top", range.Top);
        AddPosition(command, "@last", range.Last);
        await foreach (var order in StreamAsync(command, "document.list_by_customer", cancellationToken).ConfigureAwait(false))
        {
            yield return order;
        }
    }

    private static void AddCustomerAndStatus(SqliteCommand command, CustomerOrdersQuery query)
    {
        command.Parameters.AddWithValue("@customer_id", query.CustomerId);
        if (query.Status is { } status)
        {
            command.Parameters.AddWithValue("@status", status.ToString());
        }
    }

    /// <summary>A position as the columns store it: the fixed-width timestamp text and the canonical id text, which sort as the engine sorts them.</summary>
    private static void AddPosition(SqliteCommand command, string name, OrderPosition position)
    {
        command.Parameters.AddWithValue(name + "_at", Timestamps.ToText(position.CreatedAt));
        command.Parameters.AddWithValue(name + "_id", position.Id.ToString());
    }
}
