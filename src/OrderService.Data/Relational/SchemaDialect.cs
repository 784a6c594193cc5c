using System.Data.Common;

namespace OrderService.Data.Relational;

/// <summary>What one engine does its own way when <see cref="SchemaRunner"/> applies scripts.</summary>
public abstract class SchemaDialect
{
    public abstract string ProviderName { get; }

    /// <summary>The isolation the unit runs at, as telemetry reports it.</summary>
    public virtual string IsolationInForce => "ReadCommitted";

    public virtual int CommandTimeoutSeconds => 120;

    /// <summary>An open connection for the schema; the caller disposes it.</summary>
    public abstract Task<DbConnection> OpenAsync(CancellationToken cancellationToken);

    /// <summary>Held until the unit ends: concurrent start-ups apply the scripts one after another.</summary>
    protected virtual string? LockStatement(SchemaHistory history) => null;

    /// <summary>Creates <paramref name="table"/> (version, applied_at) when it does not exist.</summary>
    public abstract string CreateVersionsTable(string table);

    /// <summary>The versions recorded in <paramref name="table"/>.</summary>
    public virtual string AppliedVersions(string table) => $"SELECT version FROM {table}";

    /// <summary>Records <c>@version</c> in <paramref name="table"/>, applied now.</summary>
    public abstract string RecordVersion(string table);

    /// <summary>Begins the unit and takes the schema lock.</summary>
    public virtual async Task<DbTransaction?> BeginAsync(DbConnection connection, SchemaHistory history,
        CancellationToken cancellationToken)
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

    /// <summary>What the engine adds after the scripts, in the same unit.</summary>
    public virtual Task AfterScriptsAsync(DbConnection connection, DbTransaction? transaction, SchemaHistory history,
        CancellationToken cancellationToken) =>
        Task.CompletedTask;

    public virtual Task CommitAsync(DbConnection connection, DbTransaction? transaction,
        CancellationToken cancellationToken) =>
        transaction!.CommitAsync(cancellationToken);

    public virtual Task RollbackAsync(DbConnection connection, DbTransaction? transaction) => Task.CompletedTask;
}
