using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

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

    public static UpdateDefinition<BsonDocument> ForgetKeysStoredBefore(DateTimeOffset before) =>
        new BsonDocumentUpdateDefinition<BsonDocument>(new BsonDocument("$pull", new BsonDocument(
            OrderKeys.Field, new BsonDocument(OrderKeys.At,
                new BsonDocument("$lt", OrderBson.ToMicroseconds(before))))));
}
