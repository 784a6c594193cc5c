using MongoDB.Bson;
using MongoDB.Bson.Serialization;
using MongoDB.Bson.Serialization.Serializers;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>The one BSON mapping of the order records: every read and write of an order goes through it.</summary>
public static class OrderClassMaps
{
    private static readonly IBsonSerializer<decimal> Money = new TwoDecimalsSerializer();
    private static readonly IBsonSerializer<DateTimeOffset> Instant = new MicrosecondsSerializer();

    /// <summary>Registered once per process: the class maps live in the driver's process-wide registry.</summary>
    static OrderClassMaps()
    {
        Register<OrderLine>(map =>
        {
            map.MapMember(l => l.Sku).SetElementName("sku");
            map.MapMember(l => l.Quantity).SetElementName("quantity");
            map.MapMember(l => l.UnitPrice).SetElementName("unitPrice").SetSerializer(Money);
            map.MapCreator(l => new OrderLine(l.Sku, l.Quantity, l.UnitPrice));
        });
        Register<OrderEventData>(map =>
        {
            // Only the step's own fields are stored; the defaults let the creator run when a field is left out.
            map.MapMember(d => d.PaymentReference).SetElementName("paymentReference").SetIgnoreIfNull(true)
                .SetDefaultValue((object?)null);
            map.MapMember(d => d.Carrier).SetElementName("carrier").SetIgnoreIfNull(true)
                .SetDefaultValue((object?)null);
            map.MapMember(d => d.TrackingNumber).SetElementName("trackingNumber").SetIgnoreIfNull(true)
                .SetDefaultValue((object?)null);
            map.MapMember(d => d.Reason).SetElementName("reason").SetIgnoreIfNull(true).SetDefaultValue((object?)null);
            map.MapMember(d => d.Total).SetElementName("total").SetIgnoreIfNull(true).SetDefaultValue((object?)null)
                .SetSerializer(new NullableSerializer<decimal>(Money));
            map.MapCreator(d => new OrderEventData(d.PaymentReference, d.Carrier, d.TrackingNumber, d.Reason, d.Total));
        });
        Register<OrderEvent>(map =>
        {
            map.MapMember(e => e.Sequence).SetElementName("sequence");
            map.MapMember(e => e.Type).SetElementName("type");
            map.MapMember(e => e.At).SetElementName("at").SetSerializer(Instant);
            map.MapMember(e => e.Data).SetElementName("data");
            map.MapCreator(e => new OrderEvent(e.Sequence, e.Type, e.At, e.Data));
        });
        Register<Order>(map =>
        {
            map.MapIdMember(o => o.Id).SetSerializer(new GuidSerializer(GuidRepresentation.Standard));
            map.MapMember(o => o.CustomerId).SetElementName(OrderBson.CustomerId);
            map.MapMember(o => o.Status).SetElementName(OrderBson.Status)
                .SetSerializer(new EnumSerializer<OrderStatus>(BsonType.String));
            map.MapMember(o => o.Lines).SetElementName(OrderBson.Lines);
            map.MapMember(o => o.Total).SetElementName(OrderBson.Total).SetSerializer(Money);
            map.MapMember(o => o.Version).SetElementName(OrderBson.Version);
            map.MapMember(o => o.CreatedAt).SetElementName(OrderBson.CreatedAt).SetSerializer(Instant);
            map.MapMember(o => o.UpdatedAt).SetElementName(OrderBson.UpdatedAt).SetSerializer(Instant);
            map.MapMember(o => o.Events).SetElementName(OrderBson.Events);
            map.MapCreator(o => new Order(o.Id, o.CustomerId, o.Status, o.Lines, o.Total, o.Version, o.CreatedAt,
                o.UpdatedAt, o.Events));
        });
        Order = BsonSerializer.LookupSerializer<Order>();
    }

    /// <summary>An order as stored, without its Idempotency-Keys.</summary>
    public static IBsonSerializer<Order> Order { get; }

    /// <summary>One event as an insert embeds it; through this class, so its maps are registered first.</summary>
    public static BsonDocument EventDocument(OrderEvent orderEvent) => orderEvent.ToBsonDocument();

    /// <summary>
    /// The document an insert stores: a create's key is the first entry of the one key list its order's transitions
    /// add to, under one unique index.
    /// </summary>
    public static BsonDocument Insert(Order order, string? key = null, string? requestHash = null)
    {
        var document = order.ToBsonDocument(Order);
        if (key is not null)
        {
            document.Add(OrderKeys.Field,
                new BsonArray { OrderKeys.Entry(key, requestHash ?? "", 1, order.CreatedAt) });
        }

        return document;
    }

    private static void Register<T>(Action<BsonClassMap<T>> mapping)
    {
        var map = new BsonClassMap<T>(mapping);
        map.SetIgnoreExtraElements(true); // the Idempotency-Keys, and fields a later version may add
        // A map of these records registered elsewhere in the process would write another layout: refuse to start.
        if (!BsonClassMap.TryRegisterClassMap(map) && BsonClassMap.LookupClassMap(typeof(T)) != map)
        {
            throw new InvalidOperationException(
                $"Another class map of {typeof(T).Name} is registered; the MongoDB store writes its own layout.");
        }
    }

    private sealed class TwoDecimalsSerializer : StructSerializerBase<decimal>
    {
        public override decimal Deserialize(BsonDeserializationContext context, BsonDeserializationArgs args) =>
            Orders.Money.TwoDecimals(Decimal128.ToDecimal(context.Reader.ReadDecimal128()));

        public override void Serialize(BsonSerializationContext context, BsonSerializationArgs args, decimal value) =>
            context.Writer.WriteDecimal128(new Decimal128(Orders.Money.TwoDecimals(value)));
    }

    private sealed class MicrosecondsSerializer : StructSerializerBase<DateTimeOffset>
    {
        public override DateTimeOffset Deserialize(BsonDeserializationContext context, BsonDeserializationArgs args) =>
            OrderBson.FromMicroseconds(context.Reader.ReadInt64());

        public override void Serialize(BsonSerializationContext context, BsonSerializationArgs args,
            DateTimeOffset value) =>
            context.Writer.WriteInt64(OrderBson.ToMicroseconds(value));
    }
}
