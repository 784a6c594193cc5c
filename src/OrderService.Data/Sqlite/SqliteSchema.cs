using Dapper;
using Microsoft.Data.Sqlite;
using OrderService.Data.Relational;

using OrderService.Data.Orders;

namespace OrderService.Data.Sqlite;

/// <summary>
/// Applies the embedded SQLite scripts not yet recorded in the versions table. BEGIN IMMEDIATE takes the
/// database's write lock first, so processes starting at once apply each script exactly once (the others
/// wait out busy_timeout, then find it recorded). SQLite DDL is transactional: a failing script leaves nothing.
/// </summary>
public sealed class SqliteSchema(SqliteDatabase database, string folder = "Sqlite/Schema", string versionsTable = "schema_versions") : IStoreSchema
{
    private readonly IReadOnlyList<SchemaScript> _scripts = SchemaScripts.Load(folder);

    public Task EnsureCreatedAsync(CancellationToken cancellationToken)
    {
        database.PrepareFile();
        using var connection = database.OpenReader();
        connection.Execute("BEGIN IMMEDIATE;");
        try
        {
            connection.Execute($"CREATE TABLE IF NOT EXISTS {versionsTable} (version INTEGER NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL);");
            var applied = connection.Query<long>($"SELECT version FROM {versionsTable};").ToHashSet();
            foreach (var script in _scripts.Where(s => !applied.Contains(s.Version)))
            {
                cancellationToken.ThrowIfCancellationRequested();
                connection.Execute(script.Sql);
                connection.Execute(
                    $"INSERT INTO {versionsTable} (version, applied_at) VALUES (@Version, @At);",
                    new { script.Version, At = Timestamps.ToText(DateTimeOffset.UtcNow) });
            }

            connection.Execute("COMMIT;");
        }
        catch
        {
            TryRollback(connection);
            throw;
        }

        return Task.CompletedTask;
    }

    public Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        database.CountRowsAsync(LayoutTables.Of(StoreLayout.Document), cancellationToken);

    private static void TryRollback(SqliteConnection connection)
    {
        try
        {
            connection.Execute("ROLLBACK;");
        }
        catch (SqliteException)
        {
            // SQLite already ended the transaction.
        }
    }
}
