using MongoDB.Bson;
using MongoDB.Bson.IO;
using MongoDB.Bson.Serialization;
using MongoDB.Bson.Serialization.Serializers;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;

namespace OrderService.Benchmarks;

/// <summary>The retired hand-written insert writer, kept for one last comparison run.</summary>
internal static class RetiredOrderBsonWriter
{
    public static BsonDocument ToDocument(Order order, string? idempotencyKey, string? requestHash)
    {
        var document = new BsonDocument();
        using (var writer = new BsonDocumentWriter(document))
        {
            Write(writer, order, idempotencyKey, requestHash);
        }

        return document;
    }

    private static BsonDocument EventDocument(int sequence, string type, DateTimeOffset at, OrderEventData data) => new()
    {
        { "sequence", sequence },
        { "type", type },
        { "at", OrderBson.ToMicroseconds(at) },
        { "data", DataDocument(data) },
    };

    private static void Write(IBsonWriter writer, Order order, string? idempotencyKey, string? requestHash)
    {
        writer.WriteStartDocument();
        writer.WriteName(OrderBson.Id);
        writer.WriteBinaryData(OrderBson.IdValue(order.Id));
        writer.WriteString(OrderBson.CustomerId, order.CustomerId);
        writer.WriteString(OrderBson.Status, order.Status.ToString());
        writer.WriteStartArray(OrderBson.Lines);
        foreach (var line in order.Lines)
        {
            writer.WriteStartDocument();
            writer.WriteString("sku", line.Sku);
            writer.WriteInt32("quantity", line.Quantity);
            writer.WriteDecimal128("unitPrice", new Decimal128(Money.TwoDecimals(line.UnitPrice)));
            writer.WriteEndDocument();
        }

        writer.WriteEndArray();
        writer.WriteDecimal128(OrderBson.Total, new Decimal128(Money.TwoDecimals(order.Total)));
        writer.WriteInt32(OrderBson.Version, order.Version);
        writer.WriteInt64(OrderBson.CreatedAt, OrderBson.ToMicroseconds(order.CreatedAt));
        writer.WriteInt64(OrderBson.UpdatedAt, OrderBson.ToMicroseconds(order.UpdatedAt));
        writer.WriteStartArray(OrderBson.Events);
        foreach (var e in order.Events)
        {
            BsonDocumentSerializer.Instance.Serialize(
                BsonSerializationContext.CreateRoot(writer), EventDocument(e.Sequence, e.Type, e.At, e.Data));
        }

        writer.WriteEndArray();
        if (idempotencyKey is not null)
        {
            writer.WriteStartArray(OrderBson.Keys);
            BsonDocumentSerializer.Instance.Serialize(
                BsonSerializationContext.CreateRoot(writer), OrderKeys.Entry(idempotencyKey, requestHash ?? "", 1, order.CreatedAt));
            writer.WriteEndArray();
        }

        writer.WriteEndDocument();
    }

    private static BsonDocument DataDocument(OrderEventData data)
    {
        var document = new BsonDocument();
        if (data.PaymentReference is { } reference) document.Add("paymentReference", reference);
        if (data.Carrier is { } carrier) document.Add("carrier", carrier);
        if (data.TrackingNumber is { } tracking) document.Add("trackingNumber", tracking);
        if (data.Reason is { } reason) document.Add("reason", reason);
        if (data.Total is { } total) document.Add("total", new BsonDecimal128(new Decimal128(Money.TwoDecimals(total))));
        return document;
    }
}
