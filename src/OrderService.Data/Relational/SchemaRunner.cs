using System.Data.Common;

namespace OrderService.Data.Relational;

/// <summary>The one schema runner of every SQL engine and layout.</summary>
public sealed class SchemaRunner(SchemaDialect dialect, SchemaHistory history)
{
    public SchemaHistory History => history;

    /// <summary>Applies what <paramref name="connection"/>'s database lacks.</summary>
    public async Task ApplyAsync(DbConnection connection, CancellationToken cancellationToken)
    {
        var transaction = await dialect.BeginAsync(connection, history, cancellationToken);
        try
        {
            await ExecuteAsync(connection, transaction, "schema.versions",
                dialect.CreateVersionsTable(history.VersionsTable), null, cancellationToken);
            var applied = await AppliedVersionsAsync(connection, transaction, cancellationToken);
            foreach (var script in history.Scripts.Where(script => !applied.Contains(script.Version)))
            {
                await ExecuteAsync(connection, transaction, $"schema.apply.{script.Name}", script.Sql, null,
                    cancellationToken);
                await ExecuteAsync(connection, transaction, "schema.record",
                    dialect.RecordVersion(history.VersionsTable), script.Version, cancellationToken);
            }

            await dialect.AfterScriptsAsync(connection, transaction, history, cancellationToken);
            await dialect.CommitAsync(connection, transaction, cancellationToken);
        }
        catch
        {
            await dialect.RollbackAsync(connection, transaction);
            throw;
        }
        finally
        {
            if (transaction is not null)
            {
                await transaction.DisposeAsync();
            }
        }
    }

    /// <summary>Opens the engine's schema connection and applies what its database lacks.</summary>
    public async Task ApplyAsync(CancellationToken cancellationToken)
    {
        await using var connection = await dialect.OpenAsync(cancellationToken);
        await ApplyAsync(connection, cancellationToken);
    }

    private async Task<HashSet<long>> AppliedVersionsAsync(DbConnection connection, DbTransaction? transaction,
        CancellationToken cancellationToken)
    {
        await using var command = Command(connection, transaction, dialect.AppliedVersions(history.VersionsTable));
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        var applied = new HashSet<long>();
        while (await reader.ReadAsync(cancellationToken))
        {
            applied.Add(Convert.ToInt64(reader.GetValue(0), System.Globalization.CultureInfo.InvariantCulture));
        }

        return applied;
    }

    private async Task ExecuteAsync(DbConnection connection, DbTransaction? transaction, string operation, string sql,
        int? version, CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(dialect.ProviderName, operation, sql, dialect.IsolationInForce);
        await using var command = Command(connection, transaction, sql);
        command.CommandTimeout = dialect.CommandTimeoutSeconds;
        if (version is { } recorded)
        {
            var parameter = command.CreateParameter();
            parameter.ParameterName = "@version";
            parameter.Value = recorded;
            command.Parameters.Add(parameter);
        }

        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    internal static DbCommand Command(DbConnection connection, DbTransaction? transaction, string sql)
    {
        var command = connection.CreateCommand();
        command.CommandText = sql;
        command.Transaction = transaction;
        return command;
    }
}

/// <summary>One layout's scripts on one engine and the table that records which of them a database has.</summary>
public sealed record SchemaHistory(StoreLayout Layout, IReadOnlyList<SchemaScript> Scripts)
{
    public string VersionsTable => Layout == StoreLayout.Document ? "document_schema_versions" : "schema_versions";
}
