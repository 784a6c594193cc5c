using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>The clean-up's batch.</summary>
public sealed partial class MongoOrderStore
{
    private readonly Lock _untimedWalk = new();
    private BsonValue? _untimedAfter;
    private bool _untimedDone;

    public async Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit,
        CancellationToken cancellationToken)
    {
        var expired = OrderDefinitions.HoldingKeysStoredBefore(storedBefore);
        var ids = await FindIdsAsync(expired, null, limit, cancellationToken);
        if (ids.Count == 0)
        {
            return await ForgetUntimedKeysAsync(storedBefore, limit, cancellationToken);
        }

        // Modified, not found: an order another replica's clean-up pulled first is not counted twice.
        var pulled = await _orders.UpdateManyAsync(
            OrderDefinitions.HoldingKeysStoredBefore(storedBefore, ids),
                OrderDefinitions.ForgetKeysStoredBefore(storedBefore), cancellationToken: cancellationToken)
            ;
        return (int)pulled.ModifiedCount;
    }

    private async Task<int> ForgetUntimedKeysAsync(DateTimeOffset storedBefore, int limit,
        CancellationToken cancellationToken)
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

            var ids = await FindIdsAsync(OrderDefinitions.HoldingUntimedKeysUnchangedSince(storedBefore, after),
                OrderDefinitions.InIdOrder, limit, cancellationToken)
                ;
            lock (_untimedWalk)
            {
                (_untimedAfter, _untimedDone) = ids.Count == 0 ? (null, true) : (ids[^1], false);
            }

            if (ids.Count == 0)
            {
                return 0;
            }

            var pulled = await _orders.UpdateManyAsync(
                OrderDefinitions.HoldingUntimedKeysUnchangedSince(storedBefore,
                    null) & Builders<BsonDocument>.Filter.In(OrderBson.Id, ids),
                OrderDefinitions.ForgetUntimedKeys, cancellationToken: cancellationToken);

            // A batch another replica emptied first changed nothing here: walk on rather than end the sweep.
            if (pulled.ModifiedCount > 0)
            {
                return (int)pulled.ModifiedCount;
            }
        }
    }

    private async Task<List<BsonValue>> FindIdsAsync(FilterDefinition<BsonDocument> filter,
        SortDefinition<BsonDocument>? sort, int limit, CancellationToken cancellationToken)
    {
        var options = new FindOptions<BsonDocument,
            BsonDocument> { Projection = OrderDefinitions.IdOnly, Sort = sort, Limit = limit };
        using var cursor = await _orders.FindAsync(filter, options, cancellationToken);
        return (await cursor.ToListAsync(cancellationToken)).ConvertAll(order => order[OrderBson.Id]);
    }
}
