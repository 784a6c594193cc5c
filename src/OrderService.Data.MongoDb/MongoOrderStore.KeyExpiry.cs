using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

public sealed partial class MongoOrderStore
{
    public async Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit,
        CancellationToken cancellationToken)
    {
        var options = new FindOptions<BsonDocument,
            BsonDocument> { Projection = OrderDefinitions.IdOnly, Limit = limit };
        using var cursor = await Orders.FindAsync(OrderDefinitions.HoldingKeysStoredBefore(storedBefore), options,
            cancellationToken);
        var ids = (await cursor.ToListAsync(cancellationToken)).ConvertAll(order => order[OrderBson.Id]);
        if (ids.Count == 0)
        {
            return 0;
        }

        // Modified, not found: an order another replica's clean-up pulled first is not counted twice.
        var pulled = await Orders.UpdateManyAsync(
            OrderDefinitions.HoldingKeysStoredBefore(storedBefore, ids),
                OrderDefinitions.ForgetKeysStoredBefore(storedBefore), cancellationToken: cancellationToken);
        return (int)pulled.ModifiedCount;
    }
}
