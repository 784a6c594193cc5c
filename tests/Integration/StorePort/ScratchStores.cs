using System.Data.Common;
using Dapper;
using Microsoft.Data.Sqlite;
using Npgsql;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.Orders;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Integration.Tests.Servers;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.StorePort;

public enum Engine
{
    Sqlite,
    PostgreSql,
}

/// <summary>
/// Opens stores straight through the provider factories (no HTTP), each on a fresh database in the
/// assembly's PostgreSQL server or a fresh SQLite file in a folder of this fixture's own. The store-port
/// collections differ only in the layout they open by default.
/// </summary>
public abstract class ScratchStores(PostgresServer postgres, StoreLayout defaultLayout) : IAsyncLifetime
{
    private readonly string _sqliteFolder = Path.Combine(Path.GetTempPath(), $"orders-{defaultLayout}-{Guid.NewGuid():N}"[..32]);

    public ValueTask InitializeAsync()
    {
        Directory.CreateDirectory(_sqliteFolder);
        return ValueTask.CompletedTask;
    }

    /// <summary>A fresh database (PostgreSQL) or file (SQLite) for <paramref name="engine"/>.</summary>
    public async Task<string> NewDatabaseAsync(Engine engine) => engine == Engine.Sqlite
        ? $"Data Source={Path.Combine(_sqliteFolder, $"{Guid.NewGuid():N}.db")}"
        : await (await postgres.GetAsync()).CreateDatabaseAsync(defaultLayout == StoreLayout.Document ? "doc" : "rel", TestContext.Current.CancellationToken);

    /// <summary>A store with its schema created, on <paramref name="connectionString"/> or a fresh database.</summary>
    public async Task<OpenStore> OpenAsync(Engine engine, Action<StoreOptions>? configure = null,
        string? connectionString = null, StoreLayout? layout = null, Action<SqliteStoreOptions>? sqlite = null,
        Action<PostgreSqlStoreOptions>? postgres = null)
    {
        var options = new StoreOptions
        {
            Provider = engine == Engine.Sqlite ? StoreProvider.Sqlite : StoreProvider.PostgreSql,
            Layout = layout ?? defaultLayout,
        };
        configure?.Invoke(options);
        connectionString ??= await NewDatabaseAsync(engine);
        var context = StoreContexts.For(options, connectionString, sqlite, postgres);
        var bundle = engine == Engine.Sqlite ? SqliteStores.Create(context) : PostgreSqlStores.Create(context);
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
public sealed class OpenStore(Engine engine, StoreBundle bundle, string connectionString) : IAsyncDisposable
{
    public Engine Engine { get; } = engine;

    public IOrderStore Store => bundle.Store;

    public IStoreSchema Schema => bundle.Schema;

    public StoreBundle Bundle => bundle;

    public string ConnectionString { get; } = connectionString;

    /// <summary>How this engine stores an order id (SQLite: canonical text).</summary>
    public object Id(Guid id) => Engine == Engine.Sqlite ? id.ToString("D") : id;

    public async Task<DbConnection> OpenDirectAsync()
    {
        DbConnection connection = Engine == Engine.Sqlite ? new SqliteConnection(ConnectionString) : new NpgsqlConnection(ConnectionString);
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

    /// <summary>The document column as the database holds it (jsonb rendered as text on PostgreSQL).</summary>
    public Task<string> RawDocumentAsync(Guid id) =>
        ScalarAsync<string>("SELECT CAST(document AS text) FROM order_documents WHERE id = @Id", new { Id = Id(id) });

    /// <summary>Creates a new order through the port and returns it as created.</summary>
    public async Task<Order> CreateOrderAsync(string? customerId = null)
    {
        var order = TestOrders.New(customerId);
        var result = await Store.CreateAsync(new NewOrder(order, null, TestOrders.Hash(order.Id.ToString())), TestContext.Current.CancellationToken);
        result.Outcome.ShouldBe(CreateOutcome.Created);
        return order;
    }

    public ValueTask DisposeAsync() => bundle.DisposeAsync();
}
