using MongoDB.Bson;
using MongoDB.Bson.IO;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>One order, one BSON document, in the API's shape and field names with its events embedded.</summary>
public static class OrderBson
{
    public const string Id = "_id";
    public const string CustomerId = "customerId";
    public const string Status = "status";
    public const string Lines = "lines";
    public const string Total = "total";
    public const string Version = "version";
    public const string CreatedAt = "createdAt";
    public const string UpdatedAt = "updatedAt";
    public const string Events = "events";
    public const string Keys = OrderKeys.Field;

    private static readonly long EpochTicks = DateTimeOffset.UnixEpoch.UtcTicks;

    public static BsonBinaryData IdValue(Guid id) => new(id, GuidRepresentation.Standard);

    public static long ToMicroseconds(DateTimeOffset instant) =>
        (instant.UtcTicks - EpochTicks) / TimeSpan.TicksPerMicrosecond;

    public static DateTimeOffset FromMicroseconds(long microseconds) =>
        new(EpochTicks + (microseconds * TimeSpan.TicksPerMicrosecond), TimeSpan.Zero);

    /// <summary>Reads one stored order.</summary>
    public static Order Read(IBsonReader reader, string? wantedKey, out StoredKey? stored)
    {
        stored = null;
        Guid id = default;
        string customerId = "";
        var status = OrderStatus.Created;
        var lines = new List<OrderLine>(4);
        decimal total = 0;
        var version = 0;
        long createdAt = 0, updatedAt = 0;
        var events = new List<OrderEvent>(4);

        reader.ReadStartDocument();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            switch (reader.ReadName())
            {
                case Id: id = reader.ReadBinaryData().ToGuid(GuidRepresentation.Standard); break;
                case CustomerId: customerId = reader.ReadString(); break;
                case Status: status = Enum.Parse<OrderStatus>(reader.ReadString()); break;
                case Lines: ReadArray(reader, lines, ReadLine); break;
                case Total: total = ReadMoney(reader); break;
                case Version: version = reader.ReadInt32(); break;
                case CreatedAt: createdAt = reader.ReadInt64(); break;
                case UpdatedAt: updatedAt = reader.ReadInt64(); break;
                case Events: ReadArray(reader, events, ReadEvent); break;
                case Keys when wantedKey is not null: stored = OrderKeys.Find(reader, wantedKey); break;
                default: reader.SkipValue(); break;
            }
        }

        reader.ReadEndDocument();
        return new Order(id, customerId, status, lines, total, version, FromMicroseconds(createdAt),
            FromMicroseconds(updatedAt), events);
    }

    private static void ReadArray<T>(IBsonReader reader, List<T> items, Func<IBsonReader, T> readItem)
    {
        reader.ReadStartArray();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            items.Add(readItem(reader));
        }

        reader.ReadEndArray();
    }

    private static OrderLine ReadLine(IBsonReader reader)
    {
        string sku = "";
        int quantity = 0;
        decimal unitPrice = 0;
        reader.ReadStartDocument();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            switch (reader.ReadName())
            {
                case "sku": sku = reader.ReadString(); break;
                case "quantity": quantity = reader.ReadInt32(); break;
                case "unitPrice": unitPrice = ReadMoney(reader); break;
                default: reader.SkipValue(); break;
            }
        }

        reader.ReadEndDocument();
        return new OrderLine(sku, quantity, unitPrice);
    }

    private static OrderEvent ReadEvent(IBsonReader reader)
    {
        int sequence = 0;
        string type = "";
        long at = 0;
        var data = new OrderEventData();
        reader.ReadStartDocument();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            switch (reader.ReadName())
            {
                case "sequence": sequence = reader.ReadInt32(); break;
                case "type": type = reader.ReadString(); break;
                case "at": at = reader.ReadInt64(); break;
                case "data": data = ReadData(reader); break;
                default: reader.SkipValue(); break;
            }
        }

        reader.ReadEndDocument();
        return new OrderEvent(sequence, type, FromMicroseconds(at), data);
    }

    private static OrderEventData ReadData(IBsonReader reader)
    {
        string? paymentReference = null, carrier = null, trackingNumber = null, reason = null;
        decimal? total = null;
        reader.ReadStartDocument();
        while (reader.ReadBsonType() != BsonType.EndOfDocument)
        {
            switch (reader.ReadName())
            {
                case "paymentReference": paymentReference = reader.ReadString(); break;
                case "carrier": carrier = reader.ReadString(); break;
                case "trackingNumber": trackingNumber = reader.ReadString(); break;
                case "reason": reason = reader.ReadString(); break;
                case "total": total = ReadMoney(reader); break;
                default: reader.SkipValue(); break;
            }
        }

        reader.ReadEndDocument();
        return new OrderEventData(paymentReference, carrier, trackingNumber, reason, total);
    }

    private static decimal ReadMoney(IBsonReader reader) =>
        Money.TwoDecimals(Decimal128.ToDecimal(reader.ReadDecimal128()));
}
