using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using MongoDB.Bson.Serialization.Serializers;
using MongoDB.Driver;

namespace OrderService.Unit.Tests.Commands;

/// <summary>
/// Definitions rendered to BSON by the driver's own render API (what it sends on the wire), printed in mongosh's
/// syntax: UUID("…") is binary subtype 4, NumberLong and NumberDecimal show the stored BSON types.
/// </summary>
internal static class Rendered
{
    private static readonly JsonWriterSettings Shell = new() { OutputMode = JsonOutputMode.Shell };

    public static string Bson(BsonValue value) => value.ToJson(Shell);

    public static string Json(FilterDefinition<BsonDocument> filter) => Bson(filter.Render(Args));

    public static string Json(UpdateDefinition<BsonDocument> update) => Bson(update.Render(Args));

    public static string Json(SortDefinition<BsonDocument> sort) => Bson(sort.Render(Args));

    public static string Json<TResult>(ProjectionDefinition<BsonDocument, TResult> projection) => Bson(projection.Render(Args).Document);

    public static string Json(IndexKeysDefinition<BsonDocument> keys) => Bson(keys.Render(Args));

    public static RenderArgs<BsonDocument> Args { get; } = new(BsonDocumentSerializer.Instance, BsonSerializer.SerializerRegistry);
}
