using MongoDB.Bson.Serialization;
using MongoDB.Bson.Serialization.Attributes;
using MongoDB.Bson.Serialization.Serializers;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>The document an insert stores.</summary>
[BsonSerializer(typeof(OrderInsertSerializer))]
public sealed record OrderInsert(Order Order, string? IdempotencyKey = null, string? RequestHash = null);

/// <summary>Writes an <see cref="OrderInsert"/> with the order's class map; never read back as one.</summary>
public sealed class OrderInsertSerializer : SerializerBase<OrderInsert>
{
    public override void Serialize(BsonSerializationContext context, BsonSerializationArgs args, OrderInsert value)
    {
        if (value.IdempotencyKey is not { } key)
        {
            OrderClassMaps.Order.Serialize(context, value.Order);
            return;
        }

        // The order's members, then the key list: the class map's serializer would close the document before it.
        var writer = context.Writer;
        writer.WriteStartDocument();
        foreach (var member in OrderClassMaps.OrderMap.AllMemberMaps)
        {
            var memberValue = member.Getter(value.Order);
            if (member.ShouldSerialize(value.Order, memberValue))
            {
                writer.WriteName(member.ElementName);
                member.GetSerializer().Serialize(context, memberValue);
            }
        }

        // A create's key is the first entry of the one key list its order's transitions add to: one unique index.
        writer.WriteName(OrderKeys.Field);
        writer.WriteStartArray();
        BsonDocumentSerializer.Instance.Serialize(context,
            OrderKeys.Entry(key, value.RequestHash ?? "", 1, value.Order.CreatedAt));
        writer.WriteEndArray();
        writer.WriteEndDocument();
    }

    public override OrderInsert Deserialize(BsonDeserializationContext context, BsonDeserializationArgs args) =>
        throw new NotSupportedException("An insert is only written; reads use the order's class map.");
}
