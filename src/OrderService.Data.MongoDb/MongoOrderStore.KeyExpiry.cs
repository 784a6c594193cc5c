using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The clean-up's batch (see <see cref="IOrderStore.ForgetKeysStoredBeforeAsync"/>): the ids of at most limit orders
/// holding an expired key, then one updateMany that pulls those entries. Each order is updated atomically on its own,
/// so a concurrent keyed step of that order either lands before (its fresh entry stays) or after; a second replica's
/// clean-up pulls nothing the first already pulled.
/// <para>
/// Entries written before they carried <c>at</c> are found once per process, after the timed ones are gone: one walk of
/// the collection in _id order, batch by batch, pulling them from orders unchanged for the retention (a key is stored by
/// its order's own write, so it is at least as old as the order's last change). No index serves that test, so the walk
/// is not repeated: an order still changing then keeps them until a later start of the service.
/// </para>
/// </summary>
public sealed partial class MongoOrderStore
{
    private readonly Lock _untimedWalk = new();
    private BsonValue? _untimedAfter;
    private bool _untimedDone;

    public async Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken)
    {
        var expired = OrderDefinitions.HoldingKeysStoredBefore(storedBefore);
        var ids = await FindIdsAsync(expired, null, limit, cancellationToken).ConfigureAwait(false);
        if (ids.Count == 0)
        {
            return await ForgetUntimedKeysAsync(storedBefore, limit, cancellationToken).ConfigureAwait(false);
        }

        // Modified, not found: an order another replica's clean-up pulled first is not counted twice.
        var pulled = await _orders.UpdateManyAsync(
            OrderDefinitions.HoldingKeysStoredBefore(storedBefore, ids), OrderDefinitions.ForgetKeysStoredBefore(storedBefore), cancellationToken: cancellationToken)
            .ConfigureAwait(false);
        return (int)pulled.ModifiedCount;
    }

    private async Task<int> ForgetUntimedKeysAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken)
    {
        while (true)
        {
            BsonValue? after;
            lock (_untimedWalk)
            {
                if (_untimedDone)
                {
                    return 0;
                }

                after = _untimedAfter;
            }

            var ids = await FindIdsAsync(OrderDefinitions.HoldingUntimedKeysUnchangedSince(storedBefore, after), OrderDefinitions.InIdOrder, limit, cancellationToken)
                .ConfigureAwait(false);
            lock (_untimedWalk)
            {
                (_untimedAfter, _untimedDone) = ids.Count == 0 ? (null, true) : (ids[^1], false);
            }

            if (ids.Count == 0)
            {
                return 0;
            }

            var pulled = await _orders.UpdateManyAsync(
                OrderDefinitions.HoldingUntimedKeysUnchangedSince(storedBefore, null) & Builders<BsonDocument>.Filter.In(OrderBson.Id, ids),
                OrderDefinitions.ForgetUntimedKeys, cancellationToken: cancellationToken).ConfigureAwait(false);

            // A batch another replica emptied first changed nothing here: walk on rather than end the sweep.
            if (pulled.ModifiedCount > 0)
            {
                return (int)pulled.ModifiedCount;
            }
        }
    }

    private async Task<List<BsonValue>> FindIdsAsync(FilterDefinition<BsonDocument> filter, SortDefinition<BsonDocument>? sort, int limit, CancellationToken cancellationToken)
    {
        var options = new FindOptions<BsonDocument, BsonDocument> { Projection = OrderDefinitions.IdOnly, Sort = sort, Limit = limit };
        using var cursor = await _orders.FindAsync(filter, options, cancellationToken).ConfigureAwait(false);
        return (await cursor.ToListAsync(cancellationToken).ConfigureAwait(false)).ConvertAll(order => order[OrderBson.Id]);
    }
}
