using Dapper;
using Microsoft.Data.Sqlite;
using OrderService.Integration.Tests.Conformance.Infrastructure;

namespace OrderService.Integration.Tests.Conformance.Stores;

/// <summary>SQLite: a temp directory per fixture, one database file per host, deleted at the end.</summary>
public abstract class SqliteStoreFixture : StoreFixture
{
    private readonly string _directory = Directory.CreateTempSubdirectory("orders-sqlite-").FullName;

    protected override string Provider => "Sqlite";

    protected override Task<string> CreateDatabaseAsync(string name, CancellationToken cancellationToken) =>
        Task.FromResult($"Data Source={Path.Combine(_directory, name + ".db")}");

    /// <summary>A path SQLite cannot open as a database: it is a directory.</summary>
    protected override string UnreachableConnectionString()
    {
        var directory = Path.Combine(_directory, $"down-{Guid.NewGuid():N}");
        Directory.CreateDirectory(directory);
        return $"Data Source={directory}";
    }

    public override async Task<StoredOrderRows> ReadStoredRowsAsync(string connectionString, Guid id, CancellationToken cancellationToken)
    {
        await using var connection = new SqliteConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        var key = id.ToString("D");
        return Layout == "Document"
            ? StoredRows.Document(await connection.ExecuteScalarAsync<string?>("SELECT document FROM order_documents WHERE id = @id", new { id = key }))
            : await StoredRows.RelationalAsync(connection, key);
    }

    public override async Task<IAsyncDisposable> PlantCreateFailureAsync(string connectionString, string customerPrefix, CancellationToken cancellationToken)
    {
        var prefix = StoredRows.CheckedPrefix(customerPrefix);
        var (table, when) = Layout == "Document"
            ? ("order_documents", $"substr(NEW.customer_id, 1, {prefix.Length}) = '{prefix}'")
            : ("order_events", $"NEW.sequence = 1 AND EXISTS (SELECT 1 FROM orders o WHERE o.id = NEW.order_id AND substr(o.customer_id, 1, {prefix.Length}) = '{prefix}')");
        await ExecuteAsync(connectionString, $"CREATE TRIGGER planted_create_failure BEFORE INSERT ON {table} WHEN {when} BEGIN SELECT RAISE(ABORT, 'planted create failure'); END;", cancellationToken);
        return new AsyncCleanup(() => ExecuteAsync(connectionString, "DROP TRIGGER planted_create_failure;", CancellationToken.None));
    }

    private static async Task ExecuteAsync(string connectionString, string sql, CancellationToken cancellationToken)
    {
        await using var connection = new SqliteConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql, cancellationToken: cancellationToken));
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(_directory, recursive: true);
        }
        catch (IOException)
        {
            // A file still held open by a lingering connection; the temp directory is cleaned by the OS.
        }
    }
}

public sealed class SqliteRelationalStore : SqliteStoreFixture
{
    public override string StoreName => "SQLite relational";
}

public sealed class SqliteDocumentStore : SqliteStoreFixture
{
    public override string StoreName => "SQLite document";

    protected override string Layout => "Document";
}
