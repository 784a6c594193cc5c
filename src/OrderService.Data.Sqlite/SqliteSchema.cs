using System.Data.Common;
using Microsoft.Data.Sqlite;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

/// <summary>A layout's schema on SQLite, applied by <see cref="SchemaRunner"/>.</summary>
public sealed class SqliteSchema : SchemaDialect, IStoreSchema
{
    private readonly SqliteDatabase _database;
    private readonly SchemaRunner _runner;

    public SqliteSchema(SqliteDatabase database, StoreLayout layout)
    {
        _database = database;
        _runner = new SchemaRunner(this,
            new SchemaHistory(layout, SchemaScripts.Load(layout, typeof(SqliteSchema).Assembly)));
    }

    public override string ProviderName => SqliteDatabase.ProviderName;

    // SQLite has one writer at a time: every write transaction is serializable.
    public override string IsolationInForce => "Serializable";

    public Task EnsureCreatedAsync(CancellationToken cancellationToken)
    {
        _database.PrepareFile();
        return _runner.ApplyAsync(cancellationToken);
    }

    public Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        _database.CountRowsAsync(
            LayoutTables.Of(_runner.History.Layout == StoreLayout.Document ? StoreLayout.Relational
            : StoreLayout.Document), cancellationToken);

    public override Task<DbConnection> OpenAsync(CancellationToken cancellationToken) =>
        Task.FromResult<DbConnection>(_database.OpenReader());

    // Plain SQL rather than BeginTransaction(): BEGIN IMMEDIATE takes the write lock before the versions are read.
    public override Task<DbTransaction?> BeginAsync(DbConnection connection, SchemaHistory history,
        CancellationToken cancellationToken)
    {
        Execute(connection, "BEGIN IMMEDIATE;");
        return Task.FromResult<DbTransaction?>(null);
    }

    public override Task CommitAsync(DbConnection connection, DbTransaction? transaction,
        CancellationToken cancellationToken)
    {
        Execute(connection, "COMMIT;");
        return Task.CompletedTask;
    }

    public override Task RollbackAsync(DbConnection connection, DbTransaction? transaction)
    {
        try
        {
            Execute(connection, "ROLLBACK;");
        }
        catch (SqliteException)
        {
            // SQLite already ended the transaction.
        }

        return Task.CompletedTask;
    }

    public override string CreateVersionsTable(string table) =>
        $"CREATE TABLE IF NOT EXISTS {table} (version INTEGER NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL);";

    public override string RecordVersion(string table) =>
        $"INSERT INTO {table} (version, applied_at) VALUES (@version, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));";

    private static void Execute(DbConnection connection, string sql)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }
}
