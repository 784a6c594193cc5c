using System.Data.Common;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

/// <summary>A layout's schema on SQLite.</summary>
public sealed class SqliteSchema(SqliteDatabase database, StoreLayout layout)
    : SchemaDialect(new SchemaHistory(layout, SchemaScripts.Load(layout, typeof(SqliteSchema).Assembly))),
        IStoreSchema
{
    public override string ProviderName => SqliteDatabase.ProviderName;

    // SQLite has one writer at a time: every write transaction is serializable.
    public override string IsolationInForce => "Serializable";

    public Task EnsureCreatedAsync(CancellationToken cancellationToken)
    {
        database.PrepareFile();
        return ApplyAsync(cancellationToken);
    }

    public Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        database.CountRowsAsync(OtherLayoutTables, cancellationToken);

    public override Task<DbConnection> OpenAsync(CancellationToken cancellationToken) =>
        Task.FromResult<DbConnection>(database.OpenReader());

    public override string CreateVersionsTable(string table) =>
        $"CREATE TABLE IF NOT EXISTS {table} (version INTEGER NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL);";

    public override string RecordVersion(string table) =>
        $"INSERT INTO {table} (version, applied_at) VALUES (@version, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));";
}
