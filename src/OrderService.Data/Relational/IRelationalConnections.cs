using System.Data;
using System.Data.Common;
using Dapper;

namespace OrderService.Data.Relational;

/// <summary>
/// How one engine opens connections and runs a write unit of work for <see cref="RelationalOrderStore"/>.
/// The engine decides WHAT runs in a unit (the flows); this decides HOW it commits.
/// </summary>
public interface IRelationalConnections
{
    /// <summary>The isolation reads run at, as telemetry reports it (what the engine really does, not what was asked).</summary>
    string ReadIsolationInForce { get; }

    /// <summary>The isolation an explicit write transaction at <paramref name="requested"/> really runs at.</summary>
    string WriteIsolationInForce(IsolationLevel requested);

    /// <summary>
    /// True when the engine runs every write one at a time whatever isolation is asked (SQLite's single
    /// writer): a stricter Store:WriteIsolation then adds no conflicts, and the flows need not avoid them.
    /// </summary>
    bool SerializesWrites => false;

    /// <summary>
    /// The engine's group commit (<see cref="IGroupCommit"/>), or null when it has none or it is switched off: then every
    /// write unit commits on its own connection.
    /// </summary>
    IGroupCommit? GroupCommit => null;

    /// <summary>Opens a connection for reads; the caller disposes it. Counts as one connection opened.</summary>
    ValueTask<DbConnection> OpenReaderAsync(CancellationToken cancellationToken);

    /// <summary>
    /// Runs <paramref name="work"/> as one unit: committed when it returns, rolled back (all of it) when
    /// it throws, and only then is the returned task completed. <paramref name="isolation"/> null means
    /// the work is ONE command that is atomic on its own, so the engine may send it without an explicit
    /// transaction (one round trip); otherwise an explicit transaction at that level spans the work.
    /// Commands the work sends must use the transaction it is handed (which may be null).
    /// </summary>
    Task<T> WriteAsync<T>(IsolationLevel? isolation, Func<DbConnection, DbTransaction?, Task<T>> work, CancellationToken cancellationToken);

    /// <summary>
    /// <see cref="WriteAsync{T}"/> for a unit that awaits something outside the database before it commits (a payment the
    /// gateway holds): no thread may block on it. The engines whose units are asynchronous need nothing else.
    /// </summary>
    Task<T> WriteAwaitingAsync<T>(IsolationLevel isolation, Func<DbConnection, DbTransaction?, Task<T>> work, CancellationToken cancellationToken) =>
        WriteAsync(isolation, work, cancellationToken);

    /// <summary>
    /// Keeps <paramref name="connection"/> out of the pool when <paramref name="fault"/>, raised on it, may have left
    /// it mid-reply (a driver fault: <see cref="StoreErrors.IsDriverFault"/>), so that no later call reads the rest of
    /// that reply as its own. Called before the connection is disposed. The default keeps it: SQLite has no reply.
    /// </summary>
    void Discard(DbConnection connection, Exception fault)
    {
    }

    /// <summary>
    /// The next row of <paramref name="reader"/>, a reader on <paramref name="connection"/>, as
    /// <paramref name="row"/> reads it, or default past the last; a fault goes to <see cref="Discard"/> first.
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

    /// <summary>
    /// Sends one command of the engine and returns its reader (the caller disposes it). The default is
    /// Dapper; an engine that keeps a long-lived write connection may keep its statements prepared
    /// there instead (SQLite's group-commit writer does).
    /// </summary>
    Task<DbDataReader> ExecuteReaderAsync(DbConnection connection, CommandDefinition command) => connection.ExecuteReaderAsync(command);
}
