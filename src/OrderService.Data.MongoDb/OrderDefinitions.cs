using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>Every filter, update, projection, sort and index the MongoDB store sends, rendered in tests.</summary>
public static partial class OrderDefinitions
{
    private static readonly FilterDefinitionBuilder<BsonDocument> Filter = Builders<BsonDocument>.Filter;

    /// <summary>Reads leave the keys out and read the rest with the order's class map.</summary>
    public static readonly ProjectionDefinition<BsonDocument, Order> WithoutKeys =
        new BsonDocumentProjectionDefinition<BsonDocument, Order>(new BsonDocument(OrderKeys.Field, 0),
            OrderClassMaps.Order);

    /// <summary>What the read that explains a write that matched nothing needs: status and version.</summary>
    public static readonly ProjectionDefinition<BsonDocument, BsonDocument> StateOnly =
        new BsonDocumentProjectionDefinition<BsonDocument,
            BsonDocument>(new BsonDocument { { OrderBson.Status, 1 }, { OrderBson.Version, 1 }, { OrderBson.Id, 0 } });

    /// <summary>
    /// The listing's index, in listing order; its <c>(createdAt, _id)</c> is an <see cref="OrderPosition"/>.
    /// </summary>
    public static readonly CreateIndexModel<BsonDocument> CustomerIndex = new(
        Builders<BsonDocument>.IndexKeys.Ascending(OrderBson.CustomerId).Descending(OrderBson.CreatedAt)
            .Descending(OrderBson.Id),
        new CreateIndexOptions { Name = "customer_newest_first" });

    /// <summary>One request per Idempotency-Key across orders, creates and transitions alike.</summary>
    public static readonly CreateIndexModel<BsonDocument> KeyIndex = new(
        Builders<BsonDocument>.IndexKeys.Ascending(OrderKeys.KeyPath),
        new CreateIndexOptions<BsonDocument>
        {
            Name = "idempotency_keys",
            Unique = true,
            PartialFilterExpression = Filter.Exists(OrderKeys.KeyPath),
        });

    /// <summary>The clean-up's index of expired keys; not TTL, which would delete the whole order.</summary>
    public static readonly CreateIndexModel<BsonDocument> KeyAgeIndex = new(
        Builders<BsonDocument>.IndexKeys.Ascending(OrderKeys.AtPath),
        new CreateIndexOptions<BsonDocument>
        {
            Name = "idempotency_keys_at",
            PartialFilterExpression = Filter.Exists(OrderKeys.AtPath),
        });

    public static IReadOnlyList<CreateIndexModel<BsonDocument>> Indexes { get; } =
        [CustomerIndex, KeyIndex, KeyAgeIndex];

    public static FilterDefinition<BsonDocument> ById(Guid id) =>
        Filter.Eq(OrderBson.Id, (BsonValue)OrderBson.IdValue(id));

    /// <summary>One <c>$in</c> with every id as one array.</summary>
    public static FilterDefinition<BsonDocument> ByIds(IEnumerable<Guid> ids) =>
        Filter.In(OrderBson.Id, ids.Select(id => (BsonValue)OrderBson.IdValue(id)));

    /// <summary>The order that holds an Idempotency-Key, whichever step stored it.</summary>
    public static FilterDefinition<BsonDocument> ByKey(string key) => Filter.Eq(OrderKeys.KeyPath, key);

    /// <summary>The transition's condition: this order, allowed status, expected version, key not yet held.</summary>
    public static FilterDefinition<BsonDocument> Transitionable(TransitionCommand command)
    {
        var allowed = Transitions.AllowedFrom(command.Action).Select(status => status.ToString());
        var condition = Filter.And(ById(command.OrderId), Filter.In(OrderBson.Status, allowed));
        condition = command.ExpectedVersion is { } expected
            ? Filter.And(condition, Filter.Eq(OrderBson.Version, expected)) : condition;
        return command.IdempotencyKey is { } key ? Filter.And(condition, Filter.Ne(OrderKeys.KeyPath, key)) : condition;
    }

    /// <summary>
    /// The transition's one atomic update, a pipeline stage whose sequence is the stored version plus one; client
    /// values go in <c>$literal</c>, never as operators.
    /// </summary>
    public static UpdateDefinition<BsonDocument> Transition(TransitionCommand command)
    {
        var status = Transitions.Target(command.Action).ToString();
        var type = Transitions.EventType(command.Action);
        var at = OrderBson.ToMicroseconds(command.At);
        var next = new BsonDocument("$add", new BsonArray { "$" + OrderBson.Version, 1 });
        var pushed = OrderClassMaps.EventDocument(new OrderEvent(0, type, command.At, command.Data));
        pushed["sequence"] = next;
        pushed["type"] = Literal(type);
        pushed["data"] = Literal(pushed["data"]);
        var set = new BsonDocument
        {
            { OrderBson.Status, Literal(status) },
            { OrderBson.UpdatedAt, at },
            { OrderBson.Version, next },
            { OrderBson.Events, new BsonDocument("$concatArrays",
                new BsonArray { "$" + OrderBson.Events, new BsonArray { pushed } }) },
        };
        if (command.IdempotencyKey is { } keyed)
        {
            // An order without keys has no "keys" field ($concatArrays of a missing field is null, so start from []).
            var entry = OrderKeys.Entry(keyed, command.RequestHash, next, command.At);
            entry["key"] = Literal(keyed);
            entry["requestHash"] = Literal(command.RequestHash);
            var stored = new BsonDocument("$ifNull", new BsonArray { "$" + OrderKeys.Field, new BsonArray() });
            set.Add(OrderKeys.Field, new BsonDocument("$concatArrays",
                new BsonArray { stored, new BsonArray { entry } }));
        }

        var stage = new BsonDocument("$set", set);
        return new PipelineUpdateDefinition<BsonDocument>(PipelineDefinition<BsonDocument,
            BsonDocument>.Create([stage]));
    }

    private static BsonDocument Literal(BsonValue value) => new("$literal", value);
}
