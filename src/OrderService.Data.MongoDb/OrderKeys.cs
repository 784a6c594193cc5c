using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using MongoDB.Bson.Serialization.Serializers;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The Idempotency-Keys of an order, inside the order: <c>keys: [{ key, requestHash, version, at }]</c>, one entry per
/// keyed step (the create's entry has version 1, a transition's the version it produced). Creates and transitions
/// share one key space (<see cref="IOrderStore.TransitionAsync"/>), so one unique multikey index on <c>keys.key</c>
/// spans them all, across orders (<see cref="OrderDefinitions.KeyIndex"/>). Because the key lives in the document
/// it guards, a create is still one insert and a keyed transition one findOneAndUpdate: the key is stored in the same
/// atomic single-document write as the event, with no multi-document transaction.
/// <para>
/// Why a list of its own and not the key inside the pushed event: an index key is generated for every element of
/// the indexed array, and an element without the field counts as null. With keys inside events, every order with a
/// keyed step and an unkeyed one would hold a null key, and the unique index would let only one such order exist.
/// Here every element has a key, and an order without any key has no <c>keys</c> field (the index is partial on it).
/// </para>
/// </summary>
public static class OrderKeys
{
    public const string Field = "keys";
    public const string KeyPath = "keys.key";

    /// <summary>When the entry was stored (the create's or the step's time, Int64 microseconds like every timestamp here): the clean-up's age.</summary>
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

    /// <summary>Reads the <see cref="Field"/> array at the reader's position and returns the entry of <paramref name="wanted"/>, if there is one.</summary>
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

/// <summary>One stored Idempotency-Key: the request it names (its hash) and the version the keyed step produced.</summary>
public readonly record struct StoredKey(string Key, string RequestHash, int Version);

/// <summary>A stored order with its entry for the key it was found by (null when the order does not hold that key).</summary>
public sealed record KeyedOrder(Order Order, StoredKey? Key);

/// <summary>Reads and writes <see cref="Order"/> with <see cref="OrderBson"/>, without reflection, class maps or global registration.</summary>
public sealed class OrderBsonSerializer : SerializerBase<Order>
{
    public static readonly OrderBsonSerializer Instance = new();

    public override Order Deserialize(BsonDeserializationContext context, BsonDeserializationArgs args) => OrderBson.Read(context.Reader, null, out _);

    public override void Serialize(BsonSerializationContext context, BsonSerializationArgs args, Order value) => OrderBson.Write(context.Writer, value, null, null);
}

/// <summary>Reads an order together with its entry for <paramref name="key"/>: a create or transition that met a known key compares the hashes.</summary>
public sealed class KeyedOrderBsonSerializer(string? key) : SerializerBase<KeyedOrder>
{
    /// <summary>The key whose entry is read (null: none, e.g. a retried insert without a key found by its id).</summary>
    public string? Key { get; } = key;

    public override KeyedOrder Deserialize(BsonDeserializationContext context, BsonDeserializationArgs args) =>
        new(OrderBson.Read(context.Reader, Key, out var stored), stored);

    public override void Serialize(BsonSerializationContext context, BsonSerializationArgs args, KeyedOrder value) =>
        throw new NotSupportedException("A keyed order is only read; inserts write OrderBson.ToDocument.");
}
