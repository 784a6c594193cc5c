using System.Data.Common;

namespace OrderService.Data.Relational;

/// <summary>
/// What one engine does its own way when <see cref="SchemaRunner"/> applies scripts: how the schema connection opens,
/// which lock serializes concurrent start-ups, and the versions table's SQL. The default unit is the driver's
/// transaction, locked by <see cref="LockStatement"/>.
/// </summary>
public abstract class SchemaDialect
{
    /// <summary>The db.system name in telemetry.</summary>
    public abstract string ProviderName { get; }

    /// <summary>The isolation the unit runs at, as telemetry reports it.</summary>
    public virtual string IsolationInForce => "ReadCommitted";

    /// <summary>How long one script may run.</summary>
    public virtual int CommandTimeoutSeconds => 120;

    /// <summary>An open connection for the schema; the caller disposes it.</summary>
    public abstract Task<DbConnection> OpenAsync(CancellationToken cancellationToken);

    /// <summary>Held until the unit ends: concurrent start-ups apply the scripts one after another. Null when <see cref="BeginAsync"/> locks by itself.</summary>
    protected virtual string? LockStatement(SchemaHistory history) => null;

    /// <summary>Creates <paramref name="table"/> (version, applied_at) when it does not exist.</summary>
    public abstract string CreateVersionsTable(string table);

    /// <summary>The versions recorded in <paramref name="table"/>.</summary>
    public virtual string AppliedVersions(string table) => $"SELECT version FROM {table}";

    /// <summary>Records <c>@version</c> in <paramref name="table"/>, applied now.</summary>
    public abstract string RecordVersion(string table);

    /// <summary>Begins the unit and takes the schema lock. Null when the engine's unit is no driver transaction (SQLite's BEGIN IMMEDIATE).</summary>
    public virtual async Task<DbTransaction?> BeginAsync(DbConnection connection, SchemaHistory history, CancellationToken cancellationToken)
    {
        var transaction = await connection.BeginTransactionAsync(cancellationToken);
        if (LockStatement(history) is { } lockStatement)
        {
            await using var command = SchemaRunner.Command(connection, transaction, lockStatement);
            command.CommandTimeout = CommandTimeoutSeconds;
            await command.ExecuteNonQueryAsync(cancellationToken);
        }

        return transaction;
    }

    /// <summary>What the engine adds after the scripts, in the same unit (Citus distributes the layout's tables).</summary>
    public virtual Task AfterScriptsAsync(DbConnection connection, DbTransaction? transaction, SchemaHistory history, CancellationToken cancellationToken) =>
        Task.CompletedTask;

    public virtual Task CommitAsync(DbConnection connection, DbTransaction? transaction, CancellationToken cancellationToken) =>
        transaction!.CommitAsync(cancellationToken);

    /// <summary>Ends a failed unit. A driver's transaction rolls back when the runner disposes it, so by default nothing is sent.</summary>
    public virtual Task RollbackAsync(DbConnection connection, DbTransaction? transaction) => Task.CompletedTask;
}
