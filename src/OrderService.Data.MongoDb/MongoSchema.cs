using MongoDB.Driver;
using MongoDB.Bson;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The MongoDB "schema": the orders collection's indexes (<see cref="OrderDefinitions.Indexes"/>). createIndexes is
/// idempotent (an index that exists with the same keys and options is a no-op), and runs behind the same schema gate
/// as the SQL stores' scripts (ResilientCalls), so the service starts while MongoDB is down and creates them on
/// the first call that reaches it. The collection itself comes into being with its first index.
/// </summary>
public sealed class MongoSchema(IMongoCollection<BsonDocument> orders) : IStoreSchema
{
    public Task EnsureCreatedAsync(CancellationToken cancellationToken) =>
        orders.Indexes.CreateManyAsync(OrderDefinitions.Indexes, cancellationToken);
}
