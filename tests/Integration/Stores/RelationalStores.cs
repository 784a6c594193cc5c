using System.Data.Common;
using Dapper;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using Xunit;

namespace OrderService.Integration.Tests.Stores;

public enum RelationalEngine
{
    Sqlite,
    PostgreSql,
}

/// <summary>
/// The store-port tests of the relational switches run alone (no other collection in parallel): they
/// count the commands and connections every store in the process reports, and they put 100 concurrent
/// writers on a 2-core machine.
/// </summary>
[CollectionDefinition(nameof(RelationalStoresCollection), DisableParallelization = true)]
public sealed class RelationalStoresCollection : ICollectionFixture<RelationalStores>;

/// <summary>Opens relational stores straight through the provider factories, each on a fresh database or file.</summary>
public sealed class RelationalStores(PostgresServer postgres) : IAsyncLifetime
{
    private readonly string _sqliteFolder = Path.Combine(Path.GetTempPath(), $"orders-rel-{Guid.NewGuid():N}"[..24]);

    public ValueTask InitializeAsync()
    {
        Directory.CreateDirectory(_sqliteFolder);
        return ValueTask.CompletedTask;
    }

    /// <summary>A fresh database (PostgreSQL) or file (SQLite) for <paramref name="engine"/>.</summary>
    public async Task<string> NewDatabaseAsync(RelationalEngine engine) => engine == RelationalEngine.Sqlite
        ? $"Data Source={Path.Combine(_sqliteFolder, $"{Guid.NewGuid():N}.db")}"
        : await (await postgres.GetAsync()).CreateDatabaseAsync("rel", TestContext.Current.CancellationToken);

    /// <summary>A relational store with its schema created, on <paramref name="connectionString"/> or a fresh database.</summary>
    public async Task<OpenStore> OpenAsync(RelationalEngine engine, Action<StoreOptions>? configure = null, string? connectionString = null)
    {
        var options = new StoreOptions { Provider = engine == RelationalEngine.Sqlite ? StoreProvider.Sqlite : StoreProvider.PostgreSql };
        configure?.Invoke(options);
        connectionString ??= await NewDatabaseAsync(engine);
        var context = new StoreContext(options, connectionString, new ServiceCollection().AddLogging().BuildServiceProvider());
        var bundle = engine == RelationalEngine.Sqlite ? SqliteStores.Create(context) : PostgreSqlStores.Create(context);
        await bundle.Schema.EnsureCreatedAsync(TestContext.Current.CancellationToken);
        return new OpenStore(engine, bundle, connectionString);
    }

    public ValueTask DisposeAsync()
    {
        SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(_sqliteFolder, recursive: true);
        }
        catch (IOException)
        {
        }

        return ValueTask.CompletedTask;
    }
}

/// <summary>A store under test, plus direct SQL access to its database for planting and checking rows.</summary>
public sealed class OpenStore(RelationalEngine engine, StoreBundle bundle, string connectionString) : IAsyncDisposable
{
    public RelationalEngine Engine { get; } = engine;

    public IOrderStore Store => bundle.Store;

    public StoreBundle Bundle => bundle;

    public string ConnectionString { get; } = connectionString;

    /// <summary>How this engine stores an order id (SQLite: canonical text).</summary>
    public object Id(Guid id) => Engine == RelationalEngine.Sqlite ? id.ToString("D") : id;

    public async Task<DbConnection> OpenDirectAsync()
    {
        DbConnection connection = Engine == RelationalEngine.Sqlite ? new SqliteConnection(ConnectionString) : new NpgsqlConnection(ConnectionString);
        await connection.OpenAsync(TestContext.Current.CancellationToken);
        return connection;
    }

    public async Task<int> ExecuteAsync(string sql, object? parameters = null)
    {
        await using var connection = await OpenDirectAsync();
        return await connection.ExecuteAsync(sql, parameters);
    }

    public async Task<T> ScalarAsync<T>(string sql, object? parameters = null)
    {
        await using var connection = await OpenDirectAsync();
        return (await connection.ExecuteScalarAsync<T>(sql, parameters))!;
    }

    public async Task<List<T>> QueryAsync<T>(string sql, object? parameters = null)
    {
        await using var connection = await OpenDirectAsync();
        return (await connection.QueryAsync<T>(sql, parameters)).ToList();
    }

    /// <summary>Creates a new order through the port and returns it as created.</summary>
    public async Task<Order> CreateOrderAsync(string? customerId = null)
    {
        var order = TestOrders.New(customerId);
        var result = await Store.CreateAsync(new NewOrder(order, null, TestOrders.Hash(order.Id.ToString())), TestContext.Current.CancellationToken);
        result.Outcome.ShouldBeCreated();
        return order;
    }

    public ValueTask DisposeAsync() => bundle.DisposeAsync();
}

public static class TestOrders
{
    public static Order New(string? customerId = null) =>
        Transitions.Create(
            Guid.CreateVersion7(),
            customerId ?? "cust-" + Guid.NewGuid().ToString("N")[..12],
            [new OrderLine("SKU-1", 3, 12.34m), new OrderLine("SKU-2", 1, 0.5m)],
            Timestamps.Now(TimeProvider.System));

    public static string Hash(string seed) =>
        Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(seed)));

    public static TransitionCommand Command(Guid id, OrderAction action, int? expectedVersion = null, Func<CancellationToken, ValueTask<bool>>? confirm = null) =>
        new(id, action, expectedVersion, Timestamps.Now(TimeProvider.System), action switch
        {
            OrderAction.Pay => new OrderEventData(PaymentReference: "pay-1"),
            OrderAction.Ship => new OrderEventData(Carrier: "DHL", TrackingNumber: "T-1"),
            OrderAction.Cancel => new OrderEventData(Reason: "changed my mind"),
            _ => new OrderEventData(),
        }, confirm);

    public static void ShouldBeCreated(this CreateOutcome outcome)
    {
        if (outcome != CreateOutcome.Created)
        {
            throw new Xunit.Sdk.XunitException($"Expected Created, got {outcome}.");
        }
    }
}
