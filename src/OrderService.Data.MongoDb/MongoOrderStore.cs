using System.Runtime.CompilerServices;
using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Document;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>The orders in MongoDB, one document per order, every write one single-document command.</summary>
public sealed partial class MongoOrderStore : IOrderStore
{
    private const int InListChunkSize = 1_000;

    private readonly IMongoClient _client;
    private readonly IMongoDatabase _database;
    private readonly IMongoCollection<BsonDocument> _explaining;
    private readonly ClientSessionOptions _requestSession;
    private readonly StoreOptions _options;
    private readonly OneKeyAtATime _keyTurns = new();

    /// <param name="primaryReads">
    /// Read the primary whatever the read preference: the store a secondary's miss falls back to
    /// (<see cref="MongoStores"/> pairs the two in a <see cref="StandbyReadsOrderStore"/>).
    /// </param>
    public MongoOrderStore(IMongoClient client, MongoSettings settings, StoreOptions options, bool primaryReads = false)
    {
        _client = client;
        _options = options;
        _database = client.GetDatabase(settings.DatabaseName);
        var orders = primaryReads ? new MongoCollectionSettings { ReadPreference = ReadPreference.Primary } : null;
        Orders = _database.GetCollection<BsonDocument>(MongoSettings.CollectionName, orders);
        _explaining = _database.GetCollection<BsonDocument>(MongoSettings.CollectionName, settings.Explaining);

        _requestSession = new ClientSessionOptions { CausalConsistency = settings.CausalSessions };
    }

    public IMongoCollection<BsonDocument> Orders { get; }

    public async Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken)
    {
        var stored = OrderDocument.Normalize(order.Order);
        var document = OrderClassMaps.Insert(stored, order.IdempotencyKey, order.RequestHash);
        using var turn = order.IdempotencyKey is { } key ? await _keyTurns.EnterAsync(key, cancellationToken)
            : default(OneKeyAtATime.Held?);
        using var session = await StartSessionAsync(cancellationToken);
        try
        {
            await (session is null
                ? Orders.InsertOneAsync(document, null, cancellationToken)
                : Orders.InsertOneAsync(session, document, null, cancellationToken));
            return new CreateResult(CreateOutcome.Created, stored);
        }
        catch (MongoException duplicate) when (MongoUniqueClash.Is(duplicate))
        {
            return await ReadExistingAsync(session, order, cancellationToken);
        }
    }

    public async Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken)
    {
        using var session = await StartSessionAsync(cancellationToken);
        var options = new FindOptions<BsonDocument, Order> { Projection = OrderDefinitions.WithoutKeys, Limit = 1 };
        using var cursor = await FindAsync(Orders, session, OrderDefinitions.ById(id), options, cancellationToken);
        return await cursor.FirstOrDefaultAsync(cancellationToken);
    }

    public async IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var distinct = OrderDocument.DistinctIds(ids);
        if (distinct.Length == 0)
        {
            yield break;
        }

        using var session = await StartSessionAsync(cancellationToken);
        foreach (var chunk in _options.BatchFilter == BatchFilter.Json ? [distinct] : distinct.Chunk(InListChunkSize))
        {
            var options = new FindOptions<BsonDocument, Order>
            {
                Projection = OrderDefinitions.WithoutKeys,
                BatchSize = Math.Min(chunk.Length, InListChunkSize),
            };
            await foreach (var order in StreamAsync(session, OrderDefinitions.ByIds(chunk), options, cancellationToken))
            {
                yield return order;
            }
        }
    }

    /// <summary>A ping that needs the primary: ready means writes can be accepted.</summary>
    public Task CheckReadyAsync(CancellationToken cancellationToken) =>
        _database.RunCommandAsync<BsonDocument>(new BsonDocument("ping", 1), ReadPreference.Primary, cancellationToken);

    private async Task<CreateResult> ReadExistingAsync(IClientSessionHandle? session, NewOrder order,
        CancellationToken cancellationToken)
    {
        var filter = order.IdempotencyKey is { } key ? OrderDefinitions.ByKey(key)
            : OrderDefinitions.ById(order.Order.Id);
        var existing = await FindKeyedAsync(session, filter, order.IdempotencyKey, cancellationToken)
            ?? (order.IdempotencyKey is { } forgotten
                ? throw new Keys.IdempotencyKeyForgottenException(forgotten)
                : throw new InvalidOperationException(
                    $"Order {order.Order.Id} met a duplicate key on insert, but the order holding it cannot be read."));
        return OrderDocument.Existing(order, existing.Key?.RequestHash, existing.Order);
    }

    private async Task<KeyedOrder?> FindKeyedAsync(IClientSessionHandle? session, FilterDefinition<BsonDocument> filter,
        string? key, CancellationToken cancellationToken)
    {
        var options = new FindOptions<BsonDocument> { Limit = 1 };
        using var cursor = await FindAsync(_explaining, session, filter, options, cancellationToken);
        return await cursor.FirstOrDefaultAsync(cancellationToken) is { } document
            ? KeyedOrder.Read(document, key)
            : null;
    }

    private async IAsyncEnumerable<Order> StreamAsync(
        IClientSessionHandle? session, FilterDefinition<BsonDocument> filter, FindOptions<BsonDocument, Order> options,
            [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var cursor = await FindAsync(Orders, session, filter, options, cancellationToken);
        while (await cursor.MoveNextAsync(cancellationToken))
        {
            foreach (var order in cursor.Current)
            {
                yield return order;
            }
        }
    }

    private static Task<IAsyncCursor<TResult>> FindAsync<TDocument, TResult>(
        IMongoCollection<TDocument> collection, IClientSessionHandle? session, FilterDefinition<TDocument> filter,
            FindOptions<TDocument, TResult> options, CancellationToken cancellationToken) =>
        session is null
            ? collection.FindAsync(filter, options, cancellationToken)
            : collection.FindAsync(session, filter, options, cancellationToken);

    private async Task<IClientSessionHandle?> StartSessionAsync(CancellationToken cancellationToken) =>
        _options.UnitOfWork == UnitOfWork.PerRequest
            ? await _client.StartSessionAsync(_requestSession, cancellationToken)
            : null;
}
