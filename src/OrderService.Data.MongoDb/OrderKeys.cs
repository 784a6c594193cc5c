using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using MongoDB.Bson.Serialization.Serializers;
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

    /// <summary>
    /// The entry of <paramref name="wanted"/> in the <see cref="Field"/> array at the reader, if any.
    /// </summary>
    public static StoredKey? Find(IBsonReader reader, string wanted)
    {
        StoredKey? found = null;
        reader.ReadStartArray();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            var entry = ReadEntry(reader);
            if (string.Equals(entry.Key, wanted, StringComparison.Ordinal))
            {
                found = entry;
            }
        }

        reader.ReadEndArray();
        return found;
    }

    private static StoredKey ReadEntry(IBsonReader reader)
    {
        string key = "", requestHash = "";
        var version = 0;
        reader.ReadStartDocument();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            switch (reader.ReadName())
            {
                case "key": key = reader.ReadString(); break;
                case "requestHash": requestHash = reader.ReadString(); break;
                case "version": version = reader.ReadInt32(); break;
                default: reader.SkipValue(); break;
            }
        }

        reader.ReadEndDocument();
        return new StoredKey(key, requestHash, version);
    }
}

/// <summary>One stored Idempotency-Key: the request it names and the version the keyed step produced.</summary>
public readonly record struct StoredKey(string Key, string RequestHash, int Version);

/// <summary>A stored order with its entry for the key it was found by.</summary>
public sealed record KeyedOrder(Order Order, StoredKey? Key);

/// <summary>Reads <see cref="Order"/> with <see cref="OrderBson"/>; writes use <see cref="OrderClassMaps"/>.</summary>
public sealed class OrderBsonSerializer : SerializerBase<Order>
{
    public static readonly OrderBsonSerializer Instance = new();

    public override Order Deserialize(BsonDeserializationContext context, BsonDeserializationArgs args) =>
        OrderBson.Read(context.Reader, null, out _);

    public override void Serialize(BsonSerializationContext context, BsonSerializationArgs args, Order value) =>
        OrderClassMaps.Order.Serialize(context, value);
}

/// <summary>Reads an order together with its entry for <paramref name="key"/>.</summary>
public sealed class KeyedOrderBsonSerializer(string? key) : SerializerBase<KeyedOrder>
{
    /// <summary>The key whose entry is read.</summary>
    public string? Key { get; } = key;

    public override KeyedOrder Deserialize(BsonDeserializationContext context, BsonDeserializationArgs args) =>
        new(OrderBson.Read(context.Reader, Key, out var stored), stored);

    public override void Serialize(BsonSerializationContext context, BsonSerializationArgs args, KeyedOrder value) =>
        throw new NotSupportedException("A keyed order is only read; inserts write an OrderInsert.");
}
