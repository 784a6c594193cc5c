using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The listing's keyset pages on <see cref="CustomerIndex"/>: createdAt, then <c>_id</c>, descending.
/// </summary>
public static partial class OrderDefinitions
{
    public static readonly ProjectionDefinition<BsonDocument, BsonDocument> PositionOnly =
        new BsonDocumentProjectionDefinition<BsonDocument,
            BsonDocument>(new BsonDocument { { OrderBson.Id, 1 }, { OrderBson.CreatedAt, 1 } });

    /// <summary>Newest first; the id breaks ties between orders created in the same microsecond (see above).</summary>
    public static readonly SortDefinition<BsonDocument> NewestFirst =
        Builders<BsonDocument>.Sort.Descending(OrderBson.CreatedAt).Descending(OrderBson.Id);

    public static FilterDefinition<BsonDocument> ByCustomer(string customerId, OrderStatus? status)
    {
        var customer = Filter.Eq(OrderBson.CustomerId, customerId);
        return status is { } wanted ? Filter.And(customer, Filter.Eq(OrderBson.Status, wanted.ToString())) : customer;
    }

    public static FilterDefinition<BsonDocument> PagePositions(CustomerOrdersQuery query)
    {
        var customer = ByCustomer(query.CustomerId, query.Status);
        if (query.After is not { } after)
        {
            return customer;
        }

        var at = OrderBson.ToMicroseconds(after.CreatedAt);
        return Filter.And(
            customer,
            Filter.Lte(OrderBson.CreatedAt, at),
            Filter.Or(Filter.Lt(OrderBson.CreatedAt, at),
                Filter.Lt(OrderBson.Id, (BsonValue)OrderBson.IdValue(after.Id))));
    }

    /// <summary>The page's rows: the customer's orders whose position lies in [Top, Last], both inclusive.</summary>
    public static FilterDefinition<BsonDocument> PageRows(CustomerOrdersQuery query, PageRange range)
    {
        var top = OrderBson.ToMicroseconds(range.Top.CreatedAt);
        var last = OrderBson.ToMicroseconds(range.Last.CreatedAt);
        return Filter.And(
            ByCustomer(query.CustomerId, query.Status),
            Filter.Lte(OrderBson.CreatedAt, top),
            Filter.Gte(OrderBson.CreatedAt, last),
            Filter.Or(Filter.Lt(OrderBson.CreatedAt, top),
                Filter.Lte(OrderBson.Id, (BsonValue)OrderBson.IdValue(range.Top.Id))),
            Filter.Or(Filter.Gt(OrderBson.CreatedAt, last),
                Filter.Gte(OrderBson.Id, (BsonValue)OrderBson.IdValue(range.Last.Id))));
    }

    public static OrderPosition Position(BsonDocument document) =>
        new(OrderBson.FromMicroseconds(document[OrderBson.CreatedAt].AsInt64), document[OrderBson.Id]
            .AsBsonBinaryData.ToGuid(GuidRepresentation.Standard));
}
