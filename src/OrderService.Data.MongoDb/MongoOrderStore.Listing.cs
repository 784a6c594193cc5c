using System.Runtime.CompilerServices;
using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>The customer listing, one keyset page at a time, as the port prescribes.</summary>
public sealed partial class MongoOrderStore
{
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var positions = await ReadLookaheadAsync(query, cancellationToken);
        return OrderPage.FromLookahead(positions, query.Limit, range =>
            StreamPageAsync(query, range, CancellationToken.None));
    }

    private async Task<List<OrderPosition>> ReadLookaheadAsync(CustomerOrdersQuery query,
        CancellationToken cancellationToken)
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
        using (var cursor = await FindAsync(_orders, session, OrderDefinitions.PagePositions(query), options,
            cancellationToken))
        {
            while (await cursor.MoveNextAsync(cancellationToken))
            {
                positions.AddRange(cursor.Current.Select(OrderDefinitions.Position));
            }
        }

        return positions;
    }

    private static FindOptions<BsonDocument,
        TRow> PageRowOptions<TRow>(ProjectionDefinition<BsonDocument, TRow> projection, CustomerOrdersQuery query) =>
        new() { Projection = projection, Sort = OrderDefinitions.NewestFirst, BatchSize = query.Limit };

    private async IAsyncEnumerable<Order> StreamPageAsync(CustomerOrdersQuery query, PageRange range,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var session = await StartSessionAsync(cancellationToken);
        await foreach (var order in StreamAsync(session, OrderDefinitions.PageRows(query, range),
            PageRowOptions(OrderDefinitions.WithoutKeys, query), cancellationToken))
        {
            yield return order;
        }
    }
}
