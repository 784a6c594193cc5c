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
