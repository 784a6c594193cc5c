using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.MongoDb;
using OrderService.Data.Resilience;
using OrderService.Integration.Tests.Servers;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.StorePort;

/// <summary>
/// The MongoDB store-port tests run alone (no other collection in parallel): they read the commands every store in
/// the process reports, turn on server-wide fail points, and put 100 concurrent writers on a 2-core machine.
/// </summary>
[CollectionDefinition(nameof(MongoStoresCollection), DisableParallelization = true)]
public sealed class MongoStoresCollection;

/// <summary>
/// A MongoDB store built straight through its factory (no HTTP) on a fresh database of the test server, with its
/// indexes created, plus a raw view of the collection for planting and checking documents. Dropped when disposed.
/// </summary>
public sealed class MongoScratchStore : IAsyncDisposable
{
    private readonly StoreBundle _bundle;
    private readonly ServiceProvider _services;
    private readonly MongoClient _raw;
    private ResilientCalls? _calls;

    private MongoScratchStore(StoreBundle bundle, ServiceProvider services, string connectionString)
    {
        _bundle = bundle;
        _services = services;
        ConnectionString = connectionString;
        _raw = MongoTestServer.Client();
        Raw = MongoTestServer.Orders(_raw, connectionString);
    }

    public IOrderStore Store => _bundle.Store;

    /// <summary>The same store behind the resilience pipeline, as the service uses it (bounded retries of transient faults, then 503).</summary>
    public IOrderStore Resilient => new ResilientOrderStore(_bundle.Store, Calls);

    private ResilientCalls Calls => _calls ??= new ResilientCalls(
        _bundle.Schema, _bundle.TransientFaults, _bundle.Pool, StorePipeline.For(_services, StoreProvider.MongoDb), StoreTelemetry.SystemName(StoreProvider.MongoDb));

    public string ConnectionString { get; }

    /// <summary>The orders collection as stored, read with the test's own client.</summary>
    public IMongoCollection<BsonDocument> Raw { get; }

    /// <param name="createSchema">False for a store whose server is not meant to answer (the schema gate would fail first).</param>
    public static async Task<MongoScratchStore> OpenAsync(Action<StoreOptions>? configure = null,
        Action<MongoUrlBuilder>? uri = null, bool createSchema = true, Action<MongoStoreOptions>? mongo = null)
    {
        await MongoTestServer.RequireServerAsync();
        var options = new StoreOptions { Provider = StoreProvider.MongoDb, Layout = StoreLayout.Document };
        configure?.Invoke(options);
        var connectionString = MongoTestServer.DatabaseUri("scratch", uri);
        // The Resilience section's defaults (FerretDB's longer bound, MongoEngine.FerretDbSettings), and the MongoDB
        // pipeline built from them as the service builds it.
        var engine = await MongoEngine.DetectAsync();
        var resilience = new ConfigurationBuilder().AddInMemoryCollection(engine.Kind == MongoEngineKind.FerretDb ? MongoEngine.FerretDbSettings : []).Build();
        var services = new ServiceCollection().AddLogging().AddStoreResilience(resilience)
            .Configure<MongoStoreOptions>(o => mongo?.Invoke(o)).BuildServiceProvider();
        var bundle = MongoStores.Create(new StoreContext(options, connectionString, services));
        if (createSchema)
        {
            await bundle.Schema.EnsureCreatedAsync(TestContext.Current.CancellationToken);
        }

        return new MongoScratchStore(bundle, services, connectionString);
    }

    /// <summary>Creates a new order through the port and returns it as created.</summary>
    public async Task<OrderService.Data.Orders.Order> CreateOrderAsync(string? customerId = null)
    {
        var order = TestOrders.New(customerId);
        var result = await Store.CreateAsync(new NewOrder(order, null, TestOrders.Hash(order.Id.ToString())), TestContext.Current.CancellationToken);
        result.Outcome.ShouldBe(CreateOutcome.Created);
        return order;
    }

    public async Task<BsonDocument> RawDocumentAsync(Guid id) =>
        await Raw.Find(new BsonDocument("_id", OrderBson.IdValue(id))).SingleAsync(TestContext.Current.CancellationToken);

    public async ValueTask DisposeAsync()
    {
        _calls?.Dispose();
        await _bundle.DisposeAsync();
        await _services.DisposeAsync();
        await _raw.DropDatabaseAsync(new MongoUrl(ConnectionString).DatabaseName);
        _raw.Dispose();
    }
}
