using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The clean-up's batch (see <see cref="IOrderStore.ForgetKeysStoredBeforeAsync"/>): the ids of at most limit orders
/// holding an expired key, then one updateMany that pulls those entries. Each order is updated atomically on its own,
/// so a concurrent keyed step of that order either lands before (its fresh entry stays) or after; a second replica's
/// clean-up pulls nothing the first already pulled.
/// </summary>
public sealed partial class MongoOrderStore
{
    public async Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken)
    {
        var options = new FindOptions<BsonDocument, BsonDocument> { Projection = OrderDefinitions.IdOnly, Limit = limit };
        List<BsonValue> ids;
        using (var cursor = await _orders.FindAsync(OrderDefinitions.HoldingKeysStoredBefore(storedBefore), options, cancellationToken).ConfigureAwait(false))
        {
            ids = (await cursor.ToListAsync(cancellationToken).ConfigureAwait(false)).ConvertAll(order => order[OrderBson.Id]);
        }

        if (ids.Count == 0)
        {
            return 0;
        }

        // Modified, not found: an order another replica's clean-up pulled first is not counted twice.
        var pulled = await _orders.UpdateManyAsync(
            OrderDefinitions.HoldingKeysStoredBefore(storedBefore, ids), OrderDefinitions.ForgetKeysStoredBefore(storedBefore), cancellationToken: cancellationToken)
            .ConfigureAwait(false);
        return (int)pulled.ModifiedCount;
    }
}
