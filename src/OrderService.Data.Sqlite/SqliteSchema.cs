using Microsoft.Data.Sqlite;
using OrderService.Data.Relational;

using OrderService.Data.Orders;

namespace OrderService.Data.Sqlite;

/// <summary>
/// Applies the embedded SQLite scripts not yet recorded in the versions table. BEGIN IMMEDIATE takes the
/// database's write lock first, so processes starting at once apply each script exactly once (the others
/// wait out busy_timeout, then find it recorded). SQLite DDL is transactional: a failing script leaves nothing.
/// Plain commands, not Dapper: this runs while the service starts, and Dapper's first call (its static set-up, a
/// parameter regex, IL emitted for the argument object) was the larger part of it (docs/performance.md, cold start).
/// </summary>
public sealed class SqliteSchema(SqliteDatabase database, string folder = "Schema", string versionsTable = "schema_versions") : IStoreSchema
{
    private readonly IReadOnlyList<SchemaScript> _scripts = SchemaScripts.Load(folder, typeof(SqliteSchema).Assembly);

    public Task EnsureCreatedAsync(CancellationToken cancellationToken)
    {
        database.PrepareFile();
        using var connection = database.OpenReader();
        Execute(connection, "BEGIN IMMEDIATE;");
        try
        {
            Execute(connection, $"CREATE TABLE IF NOT EXISTS {versionsTable} (version INTEGER NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL);");
            var applied = AppliedVersions(connection);
            foreach (var script in _scripts.Where(s => !applied.Contains(s.Version)))
            {
                cancellationToken.ThrowIfCancellationRequested();
                Execute(connection, script.Sql);
                Execute(connection, $"INSERT INTO {versionsTable} (version, applied_at) VALUES ($version, $at);",
                    ("$version", script.Version), ("$at", Timestamps.ToText(DateTimeOffset.UtcNow)));
            }

            Execute(connection, "COMMIT;");
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

    private HashSet<long> AppliedVersions(SqliteConnection connection)
    {
        using var command = connection.CreateCommand();
        command.CommandText = $"SELECT version FROM {versionsTable};";
        using var reader = command.ExecuteReader();
        var applied = new HashSet<long>();
        while (reader.Read())
        {
            applied.Add(reader.GetInt64(0));
        }

        return applied;
    }

    private static void Execute(SqliteConnection connection, string sql, params (string Name, object Value)[] parameters)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        foreach (var (name, value) in parameters)
        {
            command.Parameters.AddWithValue(name, value);
        }

        command.ExecuteNonQuery();
    }

    private static void TryRollback(SqliteConnection connection)
    {
        try
        {
            Execute(connection, "ROLLBACK;");
        }
        catch (SqliteException)
        {
            // SQLite already ended the transaction.
        }
    }
}
