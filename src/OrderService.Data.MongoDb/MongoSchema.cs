using MongoDB.Driver;
using MongoDB.Bson;

namespace OrderService.Data.MongoDb;

/// <summary>The MongoDB "schema": the orders collection's indexes, created idempotently.</summary>
public sealed class MongoSchema(IMongoCollection<BsonDocument> orders) : IStoreSchema
{
    public Task EnsureCreatedAsync(CancellationToken cancellationToken) =>
        orders.Indexes.CreateManyAsync(OrderDefinitions.Indexes, cancellationToken);
}
