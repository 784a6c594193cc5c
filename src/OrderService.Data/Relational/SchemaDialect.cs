using System.Data.Common;

namespace OrderService.Data.Relational;

/// <summary>Applies a layout's versioned scripts in one unit; each engine says what it does its own way.</summary>
public abstract class SchemaDialect(SchemaHistory history)
{
    public abstract string ProviderName { get; }

    /// <summary>The isolation the unit runs at, as telemetry reports it.</summary>
    public virtual string IsolationInForce => "ReadCommitted";

    protected const int CommandTimeoutSeconds = 120;

    protected IReadOnlyList<string> OtherLayoutTables =>
        LayoutTables.Of(history.Layout == StoreLayout.Document ? StoreLayout.Relational : StoreLayout.Document);

    /// <summary>An open connection for the schema; the caller disposes it.</summary>
    public abstract Task<DbConnection> OpenAsync(CancellationToken cancellationToken);

    /// <summary>Held until the unit ends: concurrent start-ups apply the scripts one after another.</summary>
    protected virtual string? LockStatement => null;

    /// <summary>Creates <paramref name="table"/> (version, applied_at) when it does not exist.</summary>
    public abstract string CreateVersionsTable(string table);

    public virtual string AppliedVersions(string table) => $"SELECT version FROM {table}";

    /// <summary>Records <c>@version</c> in <paramref name="table"/>, applied now.</summary>
    public abstract string RecordVersion(string table);

    /// <summary>Opens the engine's schema connection and applies what its database lacks.</summary>
    public async Task ApplyAsync(CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);

        // Disposed uncommitted, it rolls back; on SQLite it is BEGIN IMMEDIATE, the write lock before any read.
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        if (LockStatement is { } lockStatement)
        {
            await ExecuteAsync(connection, transaction, "schema.lock", lockStatement, null, cancellationToken);
        }

        await ExecuteAsync(connection, transaction, "schema.versions", CreateVersionsTable(history.VersionsTable),
            null, cancellationToken);
        var applied = await AppliedVersionsAsync(connection, transaction, cancellationToken);
        foreach (var script in history.Scripts.Where(script => !applied.Contains(script.Version)))
        {
            await ExecuteAsync(connection, transaction, $"schema.apply.{script.Name}", script.Sql, null,
                cancellationToken);
            await ExecuteAsync(connection, transaction, "schema.record", RecordVersion(history.VersionsTable),
                script.Version, cancellationToken);
        }

        await AfterScriptsAsync(connection, transaction, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
    }

    /// <summary>What the engine adds after the scripts, in the same unit.</summary>
    protected virtual Task AfterScriptsAsync(DbConnection connection, DbTransaction transaction,
        CancellationToken cancellationToken) =>
        Task.CompletedTask;

    private async Task<HashSet<long>> AppliedVersionsAsync(DbConnection connection, DbTransaction transaction,
        CancellationToken cancellationToken)
    {
        await using var command = Command(connection, transaction, AppliedVersions(history.VersionsTable));
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        var applied = new HashSet<long>();
        while (await reader.ReadAsync(cancellationToken))
        {
            applied.Add(Convert.ToInt64(reader.GetValue(0), System.Globalization.CultureInfo.InvariantCulture));
        }

        return applied;
    }

    private async Task ExecuteAsync(DbConnection connection, DbTransaction transaction, string operation, string sql,
        int? version, CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(ProviderName, operation, sql, IsolationInForce);
        await using var command = Command(connection, transaction, sql);
        command.CommandTimeout = CommandTimeoutSeconds;
        if (version is { } recorded)
        {
            var parameter = command.CreateParameter();
            parameter.ParameterName = "@version";
            parameter.Value = recorded;
            command.Parameters.Add(parameter);
        }

        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    private static DbCommand Command(DbConnection connection, DbTransaction transaction, string sql)
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
