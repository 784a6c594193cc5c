using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using OrderService.Data;
using OrderService.Data.Document;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using Xunit;

namespace OrderService.Integration.Tests.Document;

public enum Engine
{
    Sqlite,
    PostgreSql,
}

/// <summary>
/// The document-layout tests run alone (no other collection in parallel): they count the commands a
/// call sends, and they put 100 concurrent writers on a 2-core machine.
/// </summary>
[CollectionDefinition(nameof(DocumentCollection), DisableParallelization = true)]
public sealed class DocumentCollection : ICollectionFixture<DocumentDatabases>;

/// <summary>
/// Every store gets a fresh database in the assembly's PostgreSQL server (started on first use), or a
/// fresh SQLite file in a folder of the collection's own.
/// </summary>
public sealed class DocumentDatabases(PostgresServer postgres) : IAsyncLifetime
{
    private readonly string _sqliteFolder = Path.Combine(Path.GetTempPath(), $"orders-doc-{Guid.NewGuid():N}"[..24]);

    public ValueTask InitializeAsync()
    {
        Directory.CreateDirectory(_sqliteFolder);
        return ValueTask.CompletedTask;
    }

    /// <summary>A document store with its schema created, on an empty database of its own.</summary>
    public async Task<OpenStore> OpenAsync(Engine engine, Action<StoreOptions>? configure = null, StoreLayout layout = StoreLayout.Document)
    {
        var options = new StoreOptions { Provider = engine == Engine.Sqlite ? StoreProvider.Sqlite : StoreProvider.PostgreSql, Layout = layout };
        configure?.Invoke(options);
        var connectionString = engine == Engine.Sqlite
            ? $"Data Source={Path.Combine(_sqliteFolder, $"{Guid.NewGuid():N}.db")}"
            : await (await postgres.GetAsync()).CreateDatabaseAsync("doc", TestContext.Current.CancellationToken);
        var context = new StoreContext(options, connectionString, new ServiceCollection().BuildServiceProvider());
        var bundle = layout == StoreLayout.Document
            ? engine == Engine.Sqlite ? DocumentStores.CreateSqlite(context) : DocumentStores.CreatePostgres(context)
            : engine == Engine.Sqlite ? Data.Sqlite.SqliteStores.Create(context) : Data.PostgreSql.PostgreSqlStores.Create(context);
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

/// <summary>A store under test plus raw access to what it stored.</summary>
public sealed class OpenStore(Engine engine, StoreBundle bundle, string connectionString) : IAsyncDisposable
{
    public Engine Engine { get; } = engine;

    public IOrderStore Store { get; } = bundle.Store;

    public IStoreSchema Schema { get; } = bundle.Schema;

    /// <summary>The document column as the database holds it (jsonb rendered as text on PostgreSQL).</summary>
    public Task<string?> RawDocumentAsync(Guid id) =>
        ScalarAsync<string>("SELECT document FROM order_documents WHERE id = @id", ("id", Engine == Engine.Sqlite ? id.ToString() : id));

    public Task<T?> ScalarAsync<T>(string sql, params (string Name, object Value)[] parameters) => Engine == Engine.Sqlite
        ? SqliteScalarAsync<T>(sql, parameters)
        : PostgresScalarAsync<T>(sql, parameters);

    public ValueTask DisposeAsync() => bundle.DisposeAsync();

    private async Task<T?> SqliteScalarAsync<T>(string sql, (string Name, object Value)[] parameters)
    {
        await using var connection = new SqliteConnection(connectionString);
        await connection.OpenAsync(TestContext.Current.CancellationToken);
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        foreach (var (name, value) in parameters)
        {
            command.Parameters.AddWithValue("@" + name, value);
        }

        var result = await command.ExecuteScalarAsync(TestContext.Current.CancellationToken);
        return result is null or DBNull ? default : (T)Convert.ChangeType(result, typeof(T), System.Globalization.CultureInfo.InvariantCulture);
    }

    private async Task<T?> PostgresScalarAsync<T>(string sql, (string Name, object Value)[] parameters)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(TestContext.Current.CancellationToken);
        await using var command = new NpgsqlCommand(sql, connection);
        foreach (var (name, value) in parameters)
        {
            command.Parameters.AddWithValue(name, value);
        }

        var result = await command.ExecuteScalarAsync(TestContext.Current.CancellationToken);
        return result is null or DBNull ? default : (T)Convert.ChangeType(result, typeof(T), System.Globalization.CultureInfo.InvariantCulture);
    }
}
