using System.Runtime.CompilerServices;
using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Document;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The orders in MongoDB, one document per order (<see cref="OrderBson"/>), every write one command:
/// <list type="bullet">
/// <item>Create: one insertOne of the order with its Idempotency-Key entry (<see cref="OrderKeys"/>); the unique index
/// on the keys makes create-with-key one atomic single-document write. A duplicate key (E11000) is either a retried
/// insert of the same id or a known key: one read on the primary says which, and the request hashes tell a replay
/// (the order as its creation left it) from a 422.</item>
/// <item>Transition: one findOneAndUpdate returning the document after the update; with an Idempotency-Key the same
/// write pushes the key's entry (MongoOrderStore.Transitions.cs). No match: one read on the primary of the key (when
/// given), else of status and version, decides replay, 422, 404 or 409. Concurrent transitions race on one document:
/// one wins.</item>
/// <item>Reads: find by id, by <c>$in</c>, or a customer's keyset page (MongoOrderStore.Listing.cs); lists stream batch
/// by batch from the cursor.</item>
/// </list>
/// UnitOfWork=PerRequest runs all commands of a call in one causally consistent client session (the same lsid, reads
/// after the call's write carry afterClusterTime); PerCall leaves each command to the driver's implicit session.
/// Only a pay the payment gateway holds (<see cref="Payments.IPaymentAuthorizer"/>) opens a transaction: it must
/// hold the write uncommitted while the gateway decides, which needs a replica set (MongoOrderStore.Payments.cs says what
/// it does on a server without transactions). A single-document write needs none.
/// </summary>
public sealed partial class MongoOrderStore : IOrderStore
{
    private const int InListChunkSize = 1_000;

    private static readonly ClientSessionOptions CausalSession = new() { CausalConsistency = true };

    private readonly IMongoClient _client;
    private readonly Payments.IPaymentAuthorizer _payments;
    private readonly IMongoDatabase _database;
    private readonly IMongoCollection<BsonDocument> _orders;
    private readonly IMongoCollection<BsonDocument> _explaining;
    private readonly TransactionOptions _transaction;
    private readonly ClientSessionOptions _requestSession;
    private readonly StoreOptions _options;
    private readonly OneKeyAtATime _keyTurns = new();

    /// <param name="primaryReads">
    /// Read the primary whatever the read preference: the store a secondary's miss falls back to
    /// (<see cref="MongoStores"/> pairs the two in a <see cref="StandbyReadsOrderStore"/>).
    /// </param>
    public MongoOrderStore(IMongoClient client, MongoSettings settings, StoreOptions options, Payments.IPaymentAuthorizer payments, bool primaryReads = false)
    {
        _client = client;
        _payments = payments;
        _options = options;
        _database = client.GetDatabase(settings.DatabaseName);
        var orders = settings.Orders;
        if (primaryReads)
        {
            orders = orders.Clone();
            orders.ReadPreference = ReadPreference.Primary;
        }

        _orders = _database.GetCollection<BsonDocument>(MongoSettings.CollectionName, orders);
        _explaining = _database.GetCollection<BsonDocument>(MongoSettings.CollectionName, settings.Explaining);

        _requestSession = new ClientSessionOptions { CausalConsistency = settings.CausalSessions };

        // The probe's transaction reads the primary's newest state (as the single write's filter does) and commits with the configured write concern.
        _transaction = new TransactionOptions(ReadConcern.Local, ReadPreference.Primary, settings.Orders.WriteConcern);
    }

    /// <summary>The collection the schema gate creates indexes on.</summary>
    public IMongoCollection<BsonDocument> Orders => _orders;

    public async Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken)
    {
        var stored = OrderDocument.Normalize(order.Order);
        var document = OrderBson.ToDocument(stored, order.IdempotencyKey, order.RequestHash);
        using var turn = order.IdempotencyKey is { } key ? await _keyTurns.EnterAsync(key, cancellationToken).ConfigureAwait(false) : default(OneKeyAtATime.Held?);
        using var session = await StartSessionAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            var insert = session is null
                ? _orders.InsertOneAsync(document, null, cancellationToken)
                : _orders.InsertOneAsync(session, document, null, cancellationToken);
            await insert.ConfigureAwait(false);
            return new CreateResult(CreateOutcome.Created, stored);
        }
        catch (MongoException duplicate) when (MongoUniqueClash.Is(duplicate))
        {
            return await ReadExistingAsync(session, order, cancellationToken).ConfigureAwait(false);
        }
    }

    public async Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken)
    {
        using var session = await StartSessionAsync(cancellationToken).ConfigureAwait(false);
        var options = new FindOptions<BsonDocument, Order> { Projection = OrderDefinitions.WithoutKeys, Limit = 1 };
        using var cursor = await FindAsync(_orders, session, OrderDefinitions.ById(id), options, cancellationToken).ConfigureAwait(false);
        return await cursor.FirstOrDefaultAsync(cancellationToken).ConfigureAwait(false);
    }

    public async IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var chunks = BatchChunks(ids);
        if (chunks.Count == 0)
        {
            yield break;
        }

        using var session = await StartSessionAsync(cancellationToken).ConfigureAwait(false);
        foreach (var chunk in chunks)
        {
            await foreach (var order in StreamAsync(session, OrderDefinitions.ByIds(chunk), BatchOptions(OrderDefinitions.WithoutKeys, chunk.Length), cancellationToken).ConfigureAwait(false))
            {
                yield return order;
            }
        }
    }

    /// <summary>The find options of one batch find, for both shapes a row is read in (an Order, or raw BSON for JSON).</summary>
    private static FindOptions<BsonDocument, TRow> BatchOptions<TRow>(ProjectionDefinition<BsonDocument, TRow> projection, int ids) =>
        new() { Projection = projection, BatchSize = Math.Min(ids, InListChunkSize) };

    /// <summary>
    /// The finds a batch of <paramref name="ids"/> takes (none for no id). Json: one find whose $in carries every id in one
    /// array. InList: the same find per chunk of ids, one after another.
    /// </summary>
    private IReadOnlyList<Guid[]> BatchChunks(IReadOnlyCollection<Guid> ids)
    {
        var distinct = OrderDocument.DistinctIds(ids);
        return distinct.Length == 0 ? [] : _options.BatchFilter == BatchFilter.Json ? [distinct] : [.. distinct.Chunk(InListChunkSize)];
    }

    /// <summary>A ping that needs the primary: ready means writes can be accepted.</summary>
    public Task CheckReadyAsync(CancellationToken cancellationToken) =>
        _database.RunCommandAsync<BsonDocument>(new BsonDocument("ping", 1), ReadPreference.Primary, cancellationToken);

    /// <summary>
    /// A create met a duplicate key: find the order that holds the key (or, without a key, the id) on the primary. A key
    /// a transition stored has another request hash (the two hashes never collide), so it answers 422 as it should.
    /// </summary>
    private async Task<CreateResult> ReadExistingAsync(IClientSessionHandle? session, NewOrder order, CancellationToken cancellationToken)
    {
        var filter = order.IdempotencyKey is { } key ? OrderDefinitions.ByKey(key) : OrderDefinitions.KeyedById(order.Order.Id);
        var existing = await FindKeyedAsync(session, filter, order.IdempotencyKey, cancellationToken).ConfigureAwait(false)
            ?? (order.IdempotencyKey is { } forgotten
                ? throw new Keys.IdempotencyKeyForgottenException(forgotten)
                : throw new InvalidOperationException($"Order {order.Order.Id} met a duplicate key on insert, but the order holding it cannot be read."));
        return OrderDocument.Existing(order, existing.Key?.RequestHash, existing.Order);
    }

    /// <summary>The one order <paramref name="filter"/> finds, with its entry for <paramref name="key"/>, read on the primary (it sees every acknowledged write).</summary>
    private async Task<KeyedOrder?> FindKeyedAsync(IClientSessionHandle? session, FilterDefinition<BsonDocument> filter, string? key, CancellationToken cancellationToken)
    {
        var options = new FindOptions<BsonDocument, KeyedOrder> { Projection = OrderDefinitions.WithKey(key), Limit = 1 };
        using var cursor = await FindAsync(_explaining, session, filter, options, cancellationToken).ConfigureAwait(false);
        return await cursor.FirstOrDefaultAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Yields each order as its batch arrives: a large answer is never buffered whole.</summary>
    private async IAsyncEnumerable<Order> StreamAsync(
        IClientSessionHandle? session, FilterDefinition<BsonDocument> filter, FindOptions<BsonDocument, Order> options, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var cursor = await FindAsync(_orders, session, filter, options, cancellationToken).ConfigureAwait(false);
        while (await cursor.MoveNextAsync(cancellationToken).ConfigureAwait(false))
        {
            foreach (var order in cursor.Current)
            {
                yield return order;
            }
        }
    }

    private static Task<IAsyncCursor<TResult>> FindAsync<TDocument, TResult>(
        IMongoCollection<TDocument> collection, IClientSessionHandle? session, FilterDefinition<TDocument> filter, FindOptions<TDocument, TResult> options, CancellationToken cancellationToken) =>
        session is null
            ? collection.FindAsync(filter, options, cancellationToken)
            : collection.FindAsync(session, filter, options, cancellationToken);

    /// <summary>
    /// PerRequest: one session for every command of this call, causally consistent unless the read concern is
    /// "available" (<see cref="MongoSettings.CausalSessions"/>). PerCall: none (the driver's implicit session per command).
    /// </summary>
    private async Task<IClientSessionHandle?> StartSessionAsync(CancellationToken cancellationToken) =>
        _options.UnitOfWork == UnitOfWork.PerRequest
            ? await _client.StartSessionAsync(_requestSession, cancellationToken).ConfigureAwait(false)
            : null;
}
