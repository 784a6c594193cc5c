using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The clean-up's filter and update (<see cref="IOrderStore.ForgetKeysStoredBeforeAsync"/>): the orders that hold a key
/// stored before the cutoff, found through <see cref="KeyAgeIndex"/>, and a <c>$pull</c> of those entries alone. An
/// order left with <c>keys: []</c> drops out of both partial indexes, so any number of them can exist.
/// </summary>
public static partial class OrderDefinitions
{
    public static readonly ProjectionDefinition<BsonDocument, BsonDocument> IdOnly =
        new BsonDocumentProjectionDefinition<BsonDocument, BsonDocument>(new BsonDocument(OrderBson.Id, 1));

    public static FilterDefinition<BsonDocument> HoldingKeysStoredBefore(DateTimeOffset before) =>
        Filter.Lt(OrderKeys.AtPath, (BsonValue)new BsonInt64(OrderBson.ToMicroseconds(before)));

    /// <summary>The same condition on the orders a batch found by id: an entry stored since (a later step's key) stays.</summary>
    public static FilterDefinition<BsonDocument> HoldingKeysStoredBefore(DateTimeOffset before, IEnumerable<BsonValue> ids) =>
        Filter.And(Filter.In(OrderBson.Id, ids), HoldingKeysStoredBefore(before));

    /// <summary>
    /// Orders after <paramref name="afterId"/> (in _id order, so a pass walks the collection once) holding an entry written
    /// before entries carried <c>at</c>, unchanged since before the cutoff: every such entry is at least that old, as a key
    /// is stored by the order's own writes. No index serves the entry test; the _id index bounds the walk.
    /// </summary>
    public static FilterDefinition<BsonDocument> HoldingUntimedKeysUnchangedSince(DateTimeOffset before, BsonValue? afterId)
    {
        var untimed = Filter.And(
            Filter.ElemMatch<BsonDocument>(OrderKeys.Field, new BsonDocument(OrderKeys.At, new BsonDocument("$exists", false))),
            Filter.Lt(OrderBson.UpdatedAt, (BsonValue)new BsonInt64(OrderBson.ToMicroseconds(before))));
        return afterId is null ? untimed : Filter.And(Filter.Gt(OrderBson.Id, afterId), untimed);
    }

    public static readonly SortDefinition<BsonDocument> InIdOrder = Builders<BsonDocument>.Sort.Ascending(OrderBson.Id);

    public static readonly UpdateDefinition<BsonDocument> ForgetUntimedKeys =
        new BsonDocumentUpdateDefinition<BsonDocument>(new BsonDocument("$pull", new BsonDocument(
            OrderKeys.Field, new BsonDocument(OrderKeys.At, new BsonDocument("$exists", false)))));

    public static UpdateDefinition<BsonDocument> ForgetKeysStoredBefore(DateTimeOffset before) =>
        new BsonDocumentUpdateDefinition<BsonDocument>(new BsonDocument("$pull", new BsonDocument(
            OrderKeys.Field, new BsonDocument(OrderKeys.At, new BsonDocument("$lt", OrderBson.ToMicroseconds(before))))));
}
