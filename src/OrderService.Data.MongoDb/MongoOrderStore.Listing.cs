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
        var take = query.Limit + 1;
        var options = new FindOptions<BsonDocument, BsonDocument>
        {
            Projection = OrderDefinitions.PositionOnly,
            Sort = OrderDefinitions.NewestFirst,
            Limit = take,
            BatchSize = take, // one round trip: the whole lookahead in the first batch
        };
        using var session = await StartSessionAsync(cancellationToken);
        using var cursor = await FindAsync(Orders, session, OrderDefinitions.PagePositions(query), options,
            cancellationToken);
        var positions = (await cursor.ToListAsync(cancellationToken)).ConvertAll(OrderDefinitions.Position);
        return OrderPage.FromLookahead(positions, query.Limit, range =>
            StreamPageAsync(query, range, CancellationToken.None));
    }

    private async IAsyncEnumerable<Order> StreamPageAsync(CustomerOrdersQuery query, PageRange range,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var options = new FindOptions<BsonDocument, Order>
        {
            Projection = OrderDefinitions.WithoutKeys,
            Sort = OrderDefinitions.NewestFirst,
            BatchSize = query.Limit,
        };
        using var session = await StartSessionAsync(cancellationToken);
        await foreach (var order in StreamAsync(session, OrderDefinitions.PageRows(query, range), options,
            cancellationToken))
        {
            yield return order;
        }
    }
}
