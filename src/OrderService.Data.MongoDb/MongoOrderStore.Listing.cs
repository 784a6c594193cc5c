using System.Runtime.CompilerServices;
using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The customer listing, one keyset page at a time, as the port prescribes (<see cref="IOrderStore.ListByCustomerAsync"/>):
/// a lookahead of Limit + 1 positions on the customer index (<see cref="OrderDefinitions.PagePositions"/>, projecting
/// only createdAt and <c>_id</c>), then the whole orders of the page's range (<see cref="OrderDefinitions.PageRows"/>),
/// streamed from a cursor opened when the page is enumerated.
/// </summary>
public sealed partial class MongoOrderStore
{
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var positions = await ReadLookaheadAsync(query, cancellationToken);
        return OrderPage.FromLookahead(positions, query.Limit, range => StreamPageAsync(query, range, CancellationToken.None));
    }

    /// <summary>The positions of the first Limit + 1 matching orders after the query's cursor, in listing order.</summary>
    private async Task<List<OrderPosition>> ReadLookaheadAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var take = query.Limit + 1;
        var options = new FindOptions<BsonDocument, BsonDocument>
        {
            Projection = OrderDefinitions.PositionOnly,
            Sort = OrderDefinitions.NewestFirst,
            Limit = take,
            BatchSize = take, // one round trip: the whole lookahead in the first batch
        };
        var positions = new List<OrderPosition>(Math.Min(take, 64));
        using (var session = await StartSessionAsync(cancellationToken))
        using (var cursor = await FindAsync(_orders, session, OrderDefinitions.PagePositions(query), options, cancellationToken))
        {
            while (await cursor.MoveNextAsync(cancellationToken))
            {
                positions.AddRange(cursor.Current.Select(OrderDefinitions.Position));
            }
        }

        return positions;
    }

    /// <summary>
    /// The find options of a page's rows, one definition for both shapes a row is read in (an Order, or raw BSON for
    /// JSON), so that both run the same find: newest first, the usual page in the first batch.
    /// </summary>
    private static FindOptions<BsonDocument, TRow> PageRowOptions<TRow>(ProjectionDefinition<BsonDocument, TRow> projection, CustomerOrdersQuery query) =>
        new() { Projection = projection, Sort = OrderDefinitions.NewestFirst, BatchSize = query.Limit };

    /// <summary>The page's orders: cold (a session and cursor of its own per enumeration), no limit (the range bounds it), newest first.</summary>
    private async IAsyncEnumerable<Order> StreamPageAsync(CustomerOrdersQuery query, PageRange range, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var session = await StartSessionAsync(cancellationToken);
        await foreach (var order in StreamAsync(session, OrderDefinitions.PageRows(query, range), PageRowOptions(OrderDefinitions.WithoutKeys, query), cancellationToken))
        {
            yield return order;
        }
    }
}
