using MongoDB.Bson;

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

    private static readonly long EpochTicks = DateTimeOffset.UnixEpoch.UtcTicks;

    public static BsonBinaryData IdValue(Guid id) => new(id, GuidRepresentation.Standard);

    public static long ToMicroseconds(DateTimeOffset instant) =>
        (instant.UtcTicks - EpochTicks) / TimeSpan.TicksPerMicrosecond;

    public static DateTimeOffset FromMicroseconds(long microseconds) =>
        new(EpochTicks + (microseconds * TimeSpan.TicksPerMicrosecond), TimeSpan.Zero);
}
