using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>
/// Every filter, update, projection, sort and index the MongoDB store sends, in one place, so each is rendered to BSON
/// and asserted offline (tests/Unit/MongoDb). Values go in as BsonValues of the stored types (UUID subtype 4,
/// Int64 microseconds), never through a serializer a global setting could change.
/// </summary>
public static class OrderDefinitions
{
    public const string CustomerIndexName = "customer_newest_first";
    public const string IdempotencyIndexName = "idempotency_key";

    private static readonly FilterDefinitionBuilder<BsonDocument> Filter = Builders<BsonDocument>.Filter;

    /// <summary>Reads leave the idempotency record out (it is not part of the order) and read the rest with <see cref="OrderBsonSerializer"/>.</summary>
    public static readonly ProjectionDefinition<BsonDocument, Order> WithoutIdempotency =
        new ReadAs<Order>(new BsonDocument(OrderBson.Idempotency, 0), OrderBsonSerializer.Instance);

    /// <summary>The whole stored document, read with its idempotency record: the create that met a known key compares hashes.</summary>
    public static readonly ProjectionDefinition<BsonDocument, KeyedOrder> WithIdempotency =
        new ReadAs<KeyedOrder>(null, KeyedOrderBsonSerializer.Instance);

    /// <summary>What the read that explains a write that matched nothing needs: status and version.</summary>
    public static readonly ProjectionDefinition<BsonDocument, BsonDocument> StateOnly =
        new BsonDocumentProjectionDefinition<BsonDocument, BsonDocument>(new BsonDocument { { OrderBson.Status, 1 }, { OrderBson.Version, 1 }, { OrderBson.Id, 0 } });

    /// <summary>Newest first; the id breaks ties between orders created in the same microsecond, as every SQL store does.</summary>
    public static readonly SortDefinition<BsonDocument> NewestFirst = Builders<BsonDocument>.Sort.Descending(OrderBson.CreatedAt).Descending(OrderBson.Id);

    /// <summary>
    /// The customer listing's index, <c>{customerId: 1, createdAt: -1, _id: -1}</c>: equality on the customer, then the
    /// listing's order, so the listing walks the index and stops at the limit with no in-memory sort. The trailing
    /// <c>_id</c> makes the order total (ties between equal timestamps), which the keyset paging planned for the port
    /// resumes from: <c>(createdAt, _id)</c> of the last order sent is the cursor.
    /// </summary>
    public static readonly CreateIndexModel<BsonDocument> CustomerIndex = new(
        Builders<BsonDocument>.IndexKeys.Ascending(OrderBson.CustomerId).Descending(OrderBson.CreatedAt).Descending(OrderBson.Id),
        new CreateIndexOptions { Name = CustomerIndexName });

    /// <summary>
    /// One order per create Idempotency-Key: unique, and partial (only documents that have a key are in it), so the
    /// insert of the order and its key is one atomic single-document write.
    /// </summary>
    public static readonly CreateIndexModel<BsonDocument> IdempotencyIndex = new(
        Builders<BsonDocument>.IndexKeys.Ascending(OrderBson.IdempotencyKey),
        new CreateIndexOptions<BsonDocument>
        {
            Name = IdempotencyIndexName,
            Unique = true,
            PartialFilterExpression = Filter.Exists(OrderBson.IdempotencyKey),
        });

    public static IReadOnlyList<CreateIndexModel<BsonDocument>> Indexes { get; } = [CustomerIndex, IdempotencyIndex];

    public static FilterDefinition<BsonDocument> ById(Guid id) => Filter.Eq(OrderBson.Id, (BsonValue)OrderBson.IdValue(id));

    /// <summary>One <c>$in</c> with every id as one array (the batch filter's "one parameter carries all ids").</summary>
    public static FilterDefinition<BsonDocument> ByIds(IEnumerable<Guid> ids) => Filter.In(OrderBson.Id, ids.Select(id => (BsonValue)OrderBson.IdValue(id)));

    public static FilterDefinition<BsonDocument> ByIdempotencyKey(string key) => Builders<BsonDocument>.Filter.Eq(OrderBson.IdempotencyKey, key);

    public static FilterDefinition<BsonDocument> KeyedById(Guid id) => Builders<BsonDocument>.Filter.Eq(OrderBson.Id, (BsonValue)OrderBson.IdValue(id));

    public static FilterDefinition<BsonDocument> ByCustomer(string customerId, OrderStatus? status)
    {
        var customer = Filter.Eq(OrderBson.CustomerId, customerId);
        return status is { } wanted ? Filter.And(customer, Filter.Eq(OrderBson.Status, wanted.ToString())) : customer;
    }

    /// <summary>
    /// The transition's condition: this order, in a status the action is allowed from (<see cref="Transitions.AllowedFrom"/>:
    /// the pure rules decide, the filter only carries them) and, with If-Match, at the expected version.
    /// </summary>
    public static FilterDefinition<BsonDocument> Transitionable(TransitionCommand command)
    {
        var allowed = Transitions.AllowedFrom(command.Action).Select(status => status.ToString());
        var condition = Filter.And(ById(command.OrderId), Filter.In(OrderBson.Status, allowed));
        return command.ExpectedVersion is { } expected ? Filter.And(condition, Filter.Eq(OrderBson.Version, expected)) : condition;
    }

    /// <summary>
    /// The transition's change, applied atomically to the one document the filter matched. With If-Match the new version
    /// is known (expected + 1), so the classic operators say it all: <c>$set</c> status and updatedAt, <c>$inc</c>
    /// version, <c>$push</c> the event with sequence = the new version. Without If-Match no operator can copy the stored
    /// version into the pushed event, so the same change is one pipeline stage (MongoDB 4.2+), still one atomic
    /// single-document update: every field of a <c>$set</c> stage reads the document as it entered the stage, so
    /// <c>$version + 1</c> is the new version for both the version and the event's sequence. Values a client supplied are
    /// wrapped in <c>$literal</c>, so a payment reference like "$total" stays a string.
    /// </summary>
    public static UpdateDefinition<BsonDocument> Transition(TransitionCommand command)
    {
        var status = Transitions.Target(command.Action).ToString();
        var type = Transitions.EventType(command.Action);
        var at = OrderBson.ToMicroseconds(command.At);
        if (command.ExpectedVersion is { } expected)
        {
            return Builders<BsonDocument>.Update
                .Set(OrderBson.Status, status)
                .Set(OrderBson.UpdatedAt, at)
                .Inc(OrderBson.Version, 1)
                .Push(OrderBson.Events, OrderBson.EventDocument(expected + 1, type, command.At, command.Data));
        }

        var next = new BsonDocument("$add", new BsonArray { "$" + OrderBson.Version, 1 });
        var pushed = OrderBson.EventDocument(0, type, command.At, command.Data);
        pushed["sequence"] = next;
        pushed["type"] = Literal(type);
        pushed["data"] = Literal(pushed["data"]);
        var stage = new BsonDocument("$set", new BsonDocument
        {
            { OrderBson.Status, Literal(status) },
            { OrderBson.UpdatedAt, at },
            { OrderBson.Version, next },
            { OrderBson.Events, new BsonDocument("$concatArrays", new BsonArray { "$" + OrderBson.Events, new BsonArray { pushed } }) },
        });
        return new PipelineUpdateDefinition<BsonDocument>(PipelineDefinition<BsonDocument, BsonDocument>.Create([stage]));
    }

    private static BsonDocument Literal(BsonValue value) => new("$literal", value);

    /// <summary>
    /// A projection that names the serializer its results are read with, so the collection stays a plain
    /// BsonDocument collection and no serializer is registered globally for the order types.
    /// </summary>
    private sealed class ReadAs<TResult>(BsonDocument? projection, MongoDB.Bson.Serialization.IBsonSerializer<TResult> serializer)
        : ProjectionDefinition<BsonDocument, TResult>
    {
        public override RenderedProjectionDefinition<TResult> Render(RenderArgs<BsonDocument> args) => new(projection, serializer);
    }
}
