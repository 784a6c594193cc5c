using System.Collections.Concurrent;
using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.MongoDb;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;

namespace OrderService.Integration.Tests.Conformance.Stores;

/// <summary>
/// MongoDB as a conformance store: a database of its own per host on the test server (<see cref="MongoTestServer"/>:
/// ORDERS_TEST_MONGODB, else Testcontainers), dropped at the end; "down" is a closed loopback port. Without a server
/// every test of the suite reports SKIPPED with the reason. A fixture may add Store:MongoDb switches (ExtraSettings) to run the suite under them.
/// </summary>
public abstract class MongoStoreFixture : StoreFixture
{
    private readonly ConcurrentBag<string> _databases = [];

    protected override string Provider => "MongoDb";

    // MongoDB always keeps one document per order; saying so keeps the start-up log free of a Layout note.
    protected override string Layout => "Document";

    public override string? UnavailableReason => MongoTestServer.UnavailableReason;

    /// <summary>
    /// On FerretDB the service runs with that engine's longer attempt bound (MongoEngine.FerretDbSettings): a burst of
    /// fifty writers on one order waits seconds for connections there, where the 2 s default answers 503.
    /// </summary>
    protected override IEnumerable<KeyValuePair<string, string?>> EngineBounds() =>
        UnavailableReason is null && MongoEngine.DetectAsync().GetAwaiter().GetResult().Kind == MongoEngineKind.FerretDb
            ? MongoEngine.FerretDbSettings
            : base.EngineBounds();

    /// <summary>FerretDB's updateMany counts an order as modified when a racing update pulled its entries first.</summary>
    public override bool CountsEachForgottenKeyOnce =>
        UnavailableReason is not null || MongoEngine.DetectAsync().GetAwaiter().GetResult().Kind != MongoEngineKind.FerretDb;

    public override async ValueTask InitializeAsync()
    {
        await MongoTestServer.SelectAsync();
        await base.InitializeAsync();
    }

    protected override Task<string> CreateDatabaseAsync(string name, CancellationToken cancellationToken)
    {
        var uri = MongoTestServer.DatabaseUri(name);
        _databases.Add(uri);
        return Task.FromResult(uri);
    }

    protected override string UnreachableConnectionString() => MongoDown.ConnectionString();

    /// <summary>The stored document itself, read with a client of the test's own (not through the store).</summary>
    public override async Task<StoredOrderRows> ReadStoredRowsAsync(string connectionString, Guid id, CancellationToken cancellationToken)
    {
        using var client = ClientFor(connectionString, out var orders);
        var document = await orders
            .Find(new BsonDocument(OrderBson.Id, new BsonBinaryData(id, GuidRepresentation.Standard)))
            .FirstOrDefaultAsync(cancellationToken);
        if (document is null)
        {
            return StoredOrderRows.Nothing;
        }

        var lines = document.GetValue(OrderBson.Lines, new BsonArray()).AsBsonArray.Count;
        var events = document.GetValue(OrderBson.Events, new BsonArray()).AsBsonArray
            .Select(e => e["sequence"].ToInt32()).ToList();
        return new StoredOrderRows(true, lines, events);
    }

    /// <summary>
    /// A create is one insert, so its last write is its only one. MongoDB has no triggers: a collection validator
    /// (collMod) that rejects the planted customers makes the store's own insert fail with DocumentValidationFailure,
    /// as a real server-side rejection would. Disposing removes the validator.
    /// </summary>
    public override async Task<IAsyncDisposable> PlantCreateFailureAsync(string connectionString, string customerPrefix, CancellationToken cancellationToken)
    {
        var prefix = StoredRows.CheckedPrefix(customerPrefix);
        var client = ClientFor(connectionString, out var orders);
        var database = orders.Database;
        var validator = new BsonDocument(OrderBson.CustomerId,
            new BsonDocument("$not", new BsonRegularExpression("^" + System.Text.RegularExpressions.Regex.Escape(prefix))));
        await database.RunCommandAsync<BsonDocument>(new BsonDocument
        {
            { "collMod", MongoSettings.CollectionName },
            { "validator", validator },
            { "validationLevel", "strict" },
            { "validationAction", "error" },
        }, cancellationToken: cancellationToken);
        return new AsyncCleanup(async () =>
        {
            using (client)
            {
                await database.RunCommandAsync<BsonDocument>(new BsonDocument
                {
                    { "collMod", MongoSettings.CollectionName },
                    { "validator", new BsonDocument() },
                });
            }
        });
    }

    private static MongoClient ClientFor(string connectionString, out IMongoCollection<BsonDocument> orders)
    {
        var url = MongoUrl.Create(connectionString);
        var client = new MongoClient(url);
        orders = client.GetDatabase(url.DatabaseName ?? MongoSettings.DefaultDatabase).GetCollection<BsonDocument>(MongoSettings.CollectionName);
        return client;
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        if (!_databases.IsEmpty)
        {
            await MongoTestServer.DropAsync(_databases);
        }
    }
}

/// <summary>The defaults: the server's write concern (w:majority on a replica set), local reads.</summary>
public sealed class MongoStore : MongoStoreFixture
{
    public override string StoreName => "MongoDB";
}

/// <summary>The seed's acknowledged baseline: w:1, j:false.</summary>
public sealed class MongoAcknowledgedStore : MongoStoreFixture
{
    public override string StoreName => "MongoDB w:1 j:false";

    protected override IEnumerable<KeyValuePair<string, string?>> ExtraSettings() =>
    [
        new("Store:MongoDb:W", "1"),
        new("Store:MongoDb:Journal", "false"),
    ];
}

/// <summary>The shoot-out's majority row: majority writes (journaled, bounded by wtimeout) and majority reads.</summary>
public sealed class MongoMajorityStore : MongoStoreFixture
{
    public override string StoreName => "MongoDB w:majority, read concern majority";

    protected override IEnumerable<KeyValuePair<string, string?>> ExtraSettings() =>
    [
        new("Store:MongoDb:W", "majority"),
        new("Store:MongoDb:Journal", "true"),
        new("Store:MongoDb:WTimeoutMilliseconds", "1000"),
        new("Store:MongoDb:ReadConcern", "Majority"),
    ];
}
