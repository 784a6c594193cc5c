using Dapper;
using OrderService.Data.PostgreSql.Citus;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// Applies the embedded PostgreSQL scripts not yet recorded in the versions table, in one transaction
/// holding an advisory lock: processes starting at once queue on the lock, and the later ones find the
/// scripts recorded. DDL is transactional in PostgreSQL, so a failing script leaves nothing behind.
/// </summary>
public sealed class PostgresSchema(PostgresDatabase database, string folder = "Schema", string versionsTable = "schema_versions") : IStoreSchema
{
    // Any constant shared by every process of this service; the text "ORDERSVC" as a 64-bit number.
    private const long MigrationLockKey = 0x4F52444552535643;

    private readonly IReadOnlyList<SchemaScript> _scripts = SchemaScripts.Load(folder, typeof(PostgresSchema).Assembly);

    public async Task EnsureCreatedAsync(CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenForSchemaAsync(cancellationToken).ConfigureAwait(false);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken).ConfigureAwait(false);
        await connection.ExecuteAsync(new CommandDefinition("SELECT pg_advisory_xact_lock(@Key);", new { Key = MigrationLockKey }, transaction, cancellationToken: cancellationToken)).ConfigureAwait(false);
        await connection.ExecuteAsync(new CommandDefinition(
            $"CREATE TABLE IF NOT EXISTS {versionsTable} (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());",
            transaction: transaction, cancellationToken: cancellationToken)).ConfigureAwait(false);
        var applied = (await connection.QueryAsync<int>(new CommandDefinition($"SELECT version FROM {versionsTable};", transaction: transaction, cancellationToken: cancellationToken)).ConfigureAwait(false)).ToHashSet();
        foreach (var script in _scripts.Where(s => !applied.Contains(s.Version)))
        {
            await connection.ExecuteAsync(new CommandDefinition(script.Sql, transaction: transaction, cancellationToken: cancellationToken)).ConfigureAwait(false);
            await connection.ExecuteAsync(new CommandDefinition(
                $"INSERT INTO {versionsTable} (version) VALUES (@Version);", new { script.Version }, transaction, cancellationToken: cancellationToken)).ConfigureAwait(false);
        }

        if (database.Distribution == PostgreSqlDistribution.Citus)
        {
            await CitusSchema.DistributeAsync(connection, transaction, StoreLayout.Relational, cancellationToken).ConfigureAwait(false);
        }

        await transaction.CommitAsync(cancellationToken).ConfigureAwait(false);
    }

    public Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        database.CountRowsAsync(LayoutTables.Of(StoreLayout.Document), cancellationToken);
}
