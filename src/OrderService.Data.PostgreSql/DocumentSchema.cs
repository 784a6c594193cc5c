using System.Globalization;
using Npgsql;
using NpgsqlTypes;
using OrderService.Data.Document;
using OrderService.Data.PostgreSql.Citus;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// Applies the document layout's scripts that this database has not seen, in order, in one transaction
/// under an advisory lock: idempotent, and safe when several instances start at once.
/// </summary>
public sealed class DocumentSchema(PostgresDatabase database) : IStoreSchema
{
    private const string Provider = PostgresDatabase.ProviderName;

    public async Task EnsureCreatedAsync(CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenForSchemaAsync(cancellationToken).ConfigureAwait(false);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken).ConfigureAwait(false);
        await ExecuteAsync(connection, transaction, DocumentSql.LockSchema, cancellationToken).ConfigureAwait(false);
        await ExecuteAsync(connection, transaction, DocumentSql.CreateVersionTable, cancellationToken).ConfigureAwait(false);

        int applied;
        await using (var select = new NpgsqlCommand(DocumentSql.SelectSchemaVersion, connection, transaction))
        {
            applied = Convert.ToInt32(await select.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false), CultureInfo.InvariantCulture);
        }

        foreach (var (version, sql) in DocumentSchemaScripts.For(typeof(DocumentSchema).Assembly).Where(script => script.Version > applied))
        {
            await ExecuteAsync(connection, transaction, sql, cancellationToken).ConfigureAwait(false);
            await using var record = new NpgsqlCommand(DocumentSql.RecordSchemaVersion, connection, transaction);
            record.Parameters.Add(new NpgsqlParameter<int>("version", NpgsqlDbType.Integer) { TypedValue = version });
            await record.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
        }

        if (database.Distribution == PostgreSqlDistribution.Citus)
        {
            await CitusSchema.DistributeAsync(connection, transaction, StoreLayout.Document, cancellationToken).ConfigureAwait(false);
        }

        await transaction.CommitAsync(cancellationToken).ConfigureAwait(false);
    }

    public Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        database.CountRowsAsync(LayoutTables.Of(StoreLayout.Relational), cancellationToken);

    private static async Task ExecuteAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, string sql, CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(Provider, "document.schema", sql, "ReadCommitted");
        await using var command = new NpgsqlCommand(sql, connection, transaction);
        await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }
}
