using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>The clean-up's filter and update.</summary>
public static partial class OrderDefinitions
{
    public static readonly ProjectionDefinition<BsonDocument, BsonDocument> IdOnly =
        new BsonDocumentProjectionDefinition<BsonDocument, BsonDocument>(new BsonDocument(OrderBson.Id, 1));

    public static FilterDefinition<BsonDocument> HoldingKeysStoredBefore(DateTimeOffset before) =>
        Filter.Lt(OrderKeys.AtPath, (BsonValue)new BsonInt64(OrderBson.ToMicroseconds(before)));

    /// <summary>The same condition on the orders a batch found by id: an entry stored since stays.</summary>
    public static FilterDefinition<BsonDocument> HoldingKeysStoredBefore(DateTimeOffset before,
        IEnumerable<BsonValue> ids) =>
        Filter.And(Filter.In(OrderBson.Id, ids), HoldingKeysStoredBefore(before));

    /// <summary>Orders after <paramref name="afterId"/> with an entry from before entries carried <c>at</c>.</summary>
    public static FilterDefinition<BsonDocument> HoldingUntimedKeysUnchangedSince(DateTimeOffset before,
        BsonValue? afterId)
    {
        var untimed = Filter.And(
            Filter.ElemMatch<BsonDocument>(OrderKeys.Field,
                new BsonDocument(OrderKeys.At, new BsonDocument("$exists", false))),
            Filter.Lt(OrderBson.UpdatedAt, (BsonValue)new BsonInt64(OrderBson.ToMicroseconds(before))));
        return afterId is null ? untimed : Filter.And(Filter.Gt(OrderBson.Id, afterId), untimed);
    }

    public static readonly SortDefinition<BsonDocument> InIdOrder = Builders<BsonDocument>.Sort.Ascending(OrderBson.Id);

    public static readonly UpdateDefinition<BsonDocument> ForgetUntimedKeys =
        new BsonDocumentUpdateDefinition<BsonDocument>(new BsonDocument("$pull", new BsonDocument(
            OrderKeys.Field, new BsonDocument(OrderKeys.At, new BsonDocument("$exists", false)))));

    public static UpdateDefinition<BsonDocument> ForgetKeysStoredBefore(DateTimeOffset before) =>
        new BsonDocumentUpdateDefinition<BsonDocument>(new BsonDocument("$pull", new BsonDocument(
            OrderKeys.Field, new BsonDocument(OrderKeys.At,
                new BsonDocument("$lt", OrderBson.ToMicroseconds(before))))));
}
