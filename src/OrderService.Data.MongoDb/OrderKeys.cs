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

    /// <summary>The entry of <paramref name="wanted"/> in a stored order's <see cref="Field"/> array, if any.</summary>
    public static StoredKey? Find(BsonDocument order, string wanted)
    {
        if (!order.TryGetValue(Field, out var keys))
        {
            return null;
        }

        var entry = keys.AsBsonArray.Select(entry => entry.AsBsonDocument)
            .LastOrDefault(entry => string.Equals(entry["key"].AsString, wanted, StringComparison.Ordinal));
        return entry is null ? null : new StoredKey(wanted, entry["requestHash"].AsString, entry["version"].AsInt32);
    }
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
        return new KeyedOrder(order, key is null ? null : OrderKeys.Find(document, key));
    }
}
