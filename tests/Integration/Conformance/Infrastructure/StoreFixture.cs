using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Authorization;
using OrderService.Testing;
using Xunit;
using Overrides = System.Collections.Generic.IEnumerable<System.Collections.Generic.KeyValuePair<string, string?>>;

namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>
/// One store + layout under test. A subclass says how to make a fresh database and what "down" looks
/// like; everything else (hosts per switch combination, clients, teardown) lives here, so adding a
/// store is one small fixture class and no edit to the tests:
/// <code>
/// public sealed class MyStore : StoreFixture { StoreName, Provider, Layout, CreateDatabaseAsync, UnreachableConnectionString,
///                                              UnavailableReason (non-null skips every test with that reason) }
/// public sealed class MyStoreConformance(MyStore store) : ConformanceSuite&lt;MyStore&gt;(store);
/// public sealed class MyStoreSwitchMatrix(MyStore store) : SwitchMatrixSuite&lt;MyStore&gt;(store);
/// </code>
/// Give each run its store's traits (<c>[Trait(StoreTraits.Store, ...)]</c>, and Layout=Document for that layout):
/// scripts/test.sh counts tests per store by them, and StoreTraitTests fails a run without one.
/// </summary>
public abstract class StoreFixture : IAsyncLifetime
{
    private readonly ConcurrentDictionary<string, Lazy<Task<ServiceUnderTest>>> _services = new(StringComparer.Ordinal);

    /// <summary>How reports name this store, e.g. "PostgreSQL relational".</summary>
    public abstract string StoreName { get; }

    /// <summary>The Store:Provider value.</summary>
    protected abstract string Provider { get; }

    /// <summary>The Store:Layout value.</summary>
    protected virtual string Layout => "Relational";

    /// <summary>Why this store cannot be tested on this machine (its tests then skip with this reason); null when it can.</summary>
    public virtual string? UnavailableReason => null;

    /// <summary>
    /// Why an Idempotency-Key may name requests of different orders on this store (the engine's limit), or null when a
    /// key is one namespace across all orders: the tests of a key reused on another order skip with this reason.
    /// </summary>
    public virtual string? KeysUniquePerOrder => null;

    /// <summary>Creates an empty database of its own and returns the connection string for ConnectionStrings:Orders.</summary>
    protected abstract Task<string> CreateDatabaseAsync(string name, CancellationToken cancellationToken);

    /// <summary>A connection string the service cannot reach or open: the store is down.</summary>
    protected abstract string UnreachableConnectionString();

    /// <summary>
    /// What the database itself holds for order <paramref name="id"/>, read straight from its rows (relational:
    /// orders, order_lines, order_events; document: the stored document), never through the store.
    /// </summary>
    public abstract Task<StoredOrderRows> ReadStoredRowsAsync(string connectionString, Guid id, CancellationToken cancellationToken);

    /// <summary>
    /// Plants a failure in the LAST write a create makes (relational: the Created event's row; document: the
    /// document's row), for the orders of customers whose id starts with <paramref name="customerPrefix"/> only,
    /// so the rest of the suite is untouched. A trigger, so the store's own statements fail as they would on a
    /// real fault. Disposing the result removes it.
    /// </summary>
    public abstract Task<IAsyncDisposable> PlantCreateFailureAsync(string connectionString, string customerPrefix, CancellationToken cancellationToken);

    /// <summary>
    /// Whether two clean-ups that race for the same expired keys report each forgotten key (MongoDB: order) once between
    /// them, as every engine does but FerretDB (docs/stores/ferretdb.md); the keys are forgotten alike on all of them.
    /// </summary>
    public virtual bool CountsEachForgottenKeyOnce => true;

    /// <summary>
    /// Why a create's Idempotency-Key is kept for as long as its order on this store (the key decides the order's id),
    /// or null when it expires like every key: a create retried after the retention then replays the first order.
    /// </summary>
    public virtual string? CreateKeysLiveWithTheirOrder => null;

    /// <summary>Store-specific settings added to every host (durability knobs and the like).</summary>
    protected virtual IEnumerable<KeyValuePair<string, string?>> ExtraSettings() => [];

    /// <summary>
    /// The bounds of a host whose store answers, on a busy machine: what a test checks is then the store's behaviour,
    /// not whether a call finished within the 2 s attempt default (nor a request within its time-out). Tests of
    /// time-outs and the breaker set their own.
    /// </summary>
    public static readonly KeyValuePair<string, string?>[] AnsweringBounds =
    [
        new("Resilience:AttemptTimeoutSeconds", "20"),
        new("Resilience:TotalTimeoutSeconds", "45"),
        new("Store:CommandTimeoutSeconds", "20"),
        new("RequestTimeouts:Seconds", "60"),
        new("RequestTimeouts:StreamSeconds", "60"),
    ];

    /// <summary>
    /// The bounds added to every host but the one on a store that is down (that host must still fail within the default
    /// bounds): <see cref="AnsweringBounds"/>, or an engine's own.
    /// </summary>
    protected virtual IEnumerable<KeyValuePair<string, string?>> EngineBounds() => AnsweringBounds;

    /// <summary>The host with the default switches, started by <see cref="InitializeAsync"/>.</summary>
    public Task<ServiceUnderTest> DefaultAsync() => ServiceAsync(SwitchSet.Defaults);

    /// <summary>A started host for <paramref name="switches"/>, on a database of its own; one per combination, kept until the fixture goes.</summary>
    public Task<ServiceUnderTest> ServiceAsync(SwitchSet switches) => ServiceAsync(switches.Key, switches, []);

    /// <summary>A started host with authorization on (<see cref="TestTokens"/>' issuer and key), on a database of its
    /// own.</summary>
    public Task<ServiceUnderTest> AuthorizedAsync() => ServiceAsync("authorized", SwitchSet.Defaults,
        TestTokens.Settings.Select(s => KeyValuePair.Create(s.Key, s.Value)));

    private Task<ServiceUnderTest> ServiceAsync(string name, SwitchSet switches, Overrides overrides) =>
        _services.GetOrAdd(name, _ => new Lazy<Task<ServiceUnderTest>>(
            () => Task.Run(() => StartAsync(name, switches, overrides)))).Value;

    /// <summary>A host whose store is down (the caller disposes it). It must still start: readiness reports the fault.</summary>
    public OrderServiceFactory CreateDownFactory() => new(Settings(UnreachableConnectionString(), SwitchSet.Defaults, storeAnswers: false));

    /// <summary>A host with extra settings on a fresh database (the caller disposes it).</summary>
    public async Task<OrderServiceFactory> CreateFactoryAsync(string databaseName, IEnumerable<KeyValuePair<string, string?>> overrides)
    {
        var connectionString = await CreateDatabaseAsync(databaseName, TestContext.Current.CancellationToken);
        return new OrderServiceFactory(Settings(connectionString, SwitchSet.Defaults, overrides));
    }

    public virtual async ValueTask InitializeAsync()
    {
        if (UnavailableReason is null)
        {
            await DefaultAsync();
        }
    }

    public virtual async ValueTask DisposeAsync()
    {
        foreach (var service in _services.Values.Where(s => s.IsValueCreated))
        {
            try
            {
                await (await service.Value).DisposeAsync();
            }
            catch (Exception) when (service.Value.IsFaulted)
            {
                // It never started; the test that needed it has already failed with the reason.
            }
        }

        GC.SuppressFinalize(this);
    }

    private IReadOnlyDictionary<string, string?> Settings(string connectionString, SwitchSet switches,
        Overrides? overrides = null, bool storeAnswers = true)
    {
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = Provider,
            ["Store:Layout"] = Layout,
            [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = connectionString,
        };
        var all = switches.Settings().Concat(ExtraSettings()).Concat(storeAnswers ? EngineBounds() : [])
            .Concat(overrides ?? []);
        foreach (var (key, value) in all)
        {
            settings[key] = value;
        }

        return settings;
    }

    private async Task<ServiceUnderTest> StartAsync(string name, SwitchSet switches, Overrides overrides)
    {
        var connectionString = await CreateDatabaseAsync(name.Replace('/', '_'), CancellationToken.None);
        var factory = new OrderServiceFactory(Settings(connectionString, switches, overrides));
        try
        {
            var client = factory.CreateClient(); // starts the host: schema scripts run here
            client.Timeout = TimeSpan.FromSeconds(60);
            var store = factory.Services.GetRequiredService<IOrderStore>();
            return new ServiceUnderTest(factory, new OrderApi(client), store, switches, connectionString);
        }
        catch
        {
            await factory.DisposeAsync();
            throw;
        }
    }
}

/// <summary>A running host: its HTTP client and, for the store-port tests, the store it resolved and its database.</summary>
public sealed record ServiceUnderTest(OrderServiceFactory Factory, OrderApi Api, IOrderStore Store, SwitchSet Switches, string ConnectionString) : IAsyncDisposable
{
    public async ValueTask DisposeAsync()
    {
        Api.Http.Dispose();
        await Factory.DisposeAsync();
    }
}

/// <summary>Runs a clean-up when disposed (the removal of a planted failure).</summary>
public sealed class AsyncCleanup(Func<Task> cleanup) : IAsyncDisposable
{
    public async ValueTask DisposeAsync() => await cleanup();
}
