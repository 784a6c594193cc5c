using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>The Idempotency-Keys of an order, in a list of their own: a keyless event would index as null.</summary>
public static class OrderKeys
{
    public const string Field = "keys";
    public const string KeyPath = "keys.key";

    /// <summary>When the entry was stored: the clean-up's age.</summary>
    public const string At = "at";
    public const string AtPath = "keys.at";

    /// <summary>One entry of <see cref="Field"/>, as an insert writes it and a transition pushes it.</summary>
    public static BsonDocument Entry(string key, string requestHash, BsonValue version, DateTimeOffset at) => new()
    {
        { "key", key },
        { "requestHash", requestHash },
        { "version", version },
        { At, OrderBson.ToMicroseconds(at) },
    };
}

/// <summary>One stored Idempotency-Key: the request it names and the version the keyed step produced.</summary>
public readonly record struct StoredKey(string Key, string RequestHash, int Version);

/// <summary>A stored order with its entry for the key it was found by.</summary>
public sealed record KeyedOrder(Order Order, StoredKey? Key)
{
    public static KeyedOrder Read(BsonDocument document, string? key)
    {
        using var reader = new BsonDocumentReader(document);
        var order = OrderClassMaps.Order.Deserialize(BsonDeserializationContext.CreateRoot(reader));
        var entry = key is not null && document.TryGetValue(OrderKeys.Field, out var keys)
            ? keys.AsBsonArray.Select(stored => stored.AsBsonDocument)
                .LastOrDefault(stored => string.Equals(stored["key"].AsString, key, StringComparison.Ordinal))
            : null;
        return new KeyedOrder(order,
            entry is null ? null : new StoredKey(key!, entry["requestHash"].AsString, entry["version"].AsInt32));
    }
}
