using System.Globalization;
using Microsoft.Data.Sqlite;
using OrderService.Data.Document;

using OrderService.Data.Orders;

namespace OrderService.Data.Sqlite;

/// <summary>
/// Applies the document layout's scripts that this database has not seen, in order. It runs as one write
/// (SQLite DDL is transactional), so it is idempotent and concurrent starts apply each script once.
/// </summary>
public sealed class DocumentSchema(SqliteDatabase database) : IStoreSchema
{
    public async Task EnsureCreatedAsync(CancellationToken cancellationToken)
    {
        database.PrepareFile();
        var scripts = DocumentSchemaScripts.For(typeof(DocumentSchema).Assembly);
        await database.WriteAsync(connection => Apply(connection, scripts), cancellationToken).ConfigureAwait(false);
    }

    public Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        database.CountRowsAsync(LayoutTables.Of(StoreLayout.Relational), cancellationToken);

    private static int Apply(SqliteConnection connection, IReadOnlyList<(int Version, string Sql)> scripts)
    {
        Execute(connection, DocumentSql.CreateVersionTable);
        using var select = connection.CreateCommand();
        select.CommandText = DocumentSql.SelectSchemaVersion;
        var applied = Convert.ToInt32(select.ExecuteScalar(), CultureInfo.InvariantCulture);
        foreach (var (version, sql) in scripts.Where(script => script.Version > applied))
        {
            Execute(connection, sql);
            using var record = connection.CreateCommand();
            record.CommandText = DocumentSql.RecordSchemaVersion;
            record.Parameters.AddWithValue("@version", version);
            record.Parameters.AddWithValue("@applied_at", Timestamps.ToText(DateTimeOffset.UtcNow));
            record.ExecuteNonQuery();
            applied = version;
        }

        return applied;
    }

    private static void Execute(SqliteConnection connection, string sql)
    {
        using var activity = StoreTelemetry.Command(SqliteDatabase.ProviderName, "document.schema", sql, "Serializable");
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }
}
