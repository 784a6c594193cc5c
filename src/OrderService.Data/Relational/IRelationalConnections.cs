using System.Data;
using System.Data.Common;
using Dapper;

namespace OrderService.Data.Relational;

/// <summary>How one engine opens connections and runs a write unit for <see cref="RelationalOrderStore"/>.</summary>
public interface IRelationalConnections
{
    /// <summary>The isolation reads run at, as telemetry reports it.</summary>
    string ReadIsolationInForce { get; }

    /// <summary>The isolation an explicit write transaction at <paramref name="requested"/> really runs at.</summary>
    string WriteIsolationInForce(IsolationLevel requested);

    /// <summary>True when the engine runs every write one at a time whatever isolation is asked.</summary>
    bool SerializesWrites => false;

    /// <summary>The engine's group commit, or null when it has none or it is switched off.</summary>
    IGroupCommit? GroupCommit => null;

    /// <summary>Opens a connection for reads; the caller disposes it.</summary>
    ValueTask<DbConnection> OpenReaderAsync(CancellationToken cancellationToken);

    /// <summary>
    /// Runs <paramref name="work"/> as one unit: committed when it returns, rolled back if it throws.
    /// </summary>
    Task<T> WriteAsync<T>(IsolationLevel? isolation, Func<DbConnection, DbTransaction?, Task<T>> work,
        CancellationToken cancellationToken);

    /// <summary>
    /// Keeps <paramref name="connection"/> out of the pool when <paramref name="fault"/> may leave it mid-reply.
    /// </summary>
    void Discard(DbConnection connection, Exception fault)
    {
    }

    /// <summary>
    /// The next row of <paramref name="reader"/> or default; a fault goes to <see cref="Discard"/> first.
    /// </summary>
    async ValueTask<T?> ReadAsync<T>(
        DbConnection connection, DbDataReader reader, Func<DbDataReader, T> row, CancellationToken cancellationToken)
    {
        try
        {
            return await reader.ReadAsync(cancellationToken) ? row(reader) : default;
        }
        catch (Exception fault)
        {
            Discard(connection, fault);
            throw;
        }
    }

    /// <summary>Sends one command of the engine and returns its reader (the caller disposes it).</summary>
    Task<DbDataReader> ExecuteReaderAsync(DbConnection connection, CommandDefinition command) =>
        connection.ExecuteReaderAsync(command);
}
