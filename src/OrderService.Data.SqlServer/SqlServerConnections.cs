using System.Data;
using System.Data.Common;
using Dapper;
using Microsoft.Data.SqlClient;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

/// <summary>
/// How the SQL Server store opens connections and commits a write unit. Reads run at READ COMMITTED; ReadUncommitted
/// is the dialect's NOLOCK hints. A connection whose command was cancelled or timed out is cleared from the pool:
/// Babelfish reads a cancel only between requests, so the statement may still run on that session. So is one that a
/// driver fault left mid-reply (SqlClient's TDS parser throwing inside its own code).
/// </summary>
/// <param name="openConnection">Creates an unopened connection (a SqlConnection; tests hand in their own).</param>
public sealed class SqlServerConnections(Func<DbConnection> openConnection, ReadIsolation readIsolation) : IRelationalConnections
{
    public string ReadIsolationInForce { get; } = readIsolation == ReadIsolation.ReadUncommitted
        ? "ReadUncommitted (NOLOCK)"
        : "ReadCommitted";

    public string WriteIsolationInForce(IsolationLevel requested) => requested.ToString();

    public async ValueTask<DbConnection> OpenReaderAsync(CancellationToken cancellationToken) =>
        await OpenAsync("read", cancellationToken);

    public async Task<T> WriteAsync<T>(IsolationLevel? isolation, Func<DbConnection, DbTransaction?, Task<T>> work, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync("write", cancellationToken);
        if (isolation is not { } level)
        {
            try
            {
                return await work(connection, null);
            }
            catch (Exception fault)
            {
                Discard(connection, fault);
                throw;
            }
        }

        await using var transaction = await connection.BeginTransactionAsync(level, cancellationToken);
        try
        {
            var result = await work(connection, transaction);
            await transaction.CommitAsync(cancellationToken);
            return result;
        }
        catch (Exception fault)
        {
            Discard(connection, fault);
            await RollBackAsync(transaction);
            throw;
        }
    }

    /// <summary>The one command path of the engine (Dapper); a fault goes to <see cref="Discard"/>.</summary>
    public async Task<DbDataReader> ExecuteReaderAsync(DbConnection connection, CommandDefinition command)
    {
        try
        {
            return await connection.ExecuteReaderAsync(command);
        }
        catch (Exception fault)
        {
            Discard(connection, fault);
            throw;
        }
    }

    /// <summary>An abandoned command (<see cref="IsAbandoned"/>) or a driver fault clears the pool.</summary>
    public void Discard(DbConnection connection, Exception fault)
    {
        if (IsAbandoned(fault) || StoreErrors.IsDriverFault(fault, SqlServerTransientFaults.Instance))
        {
            ClearPool(connection);
        }
    }

    /// <summary>A command the client gave up on: SqlClient's command time-out (-2), or the caller's cancellation.</summary>
    private static bool IsAbandoned(Exception fault) =>
        fault is OperationCanceledException || (fault is SqlException sql && sql.Errors.Cast<SqlError>().Any(e => e.Number == -2));

    /// <summary>
    /// Closes <paramref name="connection"/> for good when it is next closed, instead of returning it to the pool.
    /// SqlClient dooms no single connection on request: this clears its pool, whose busy connections close on return.
    /// </summary>
    private static void ClearPool(DbConnection connection)
    {
        if (connection is SqlConnection sql)
        {
            SqlConnection.ClearPool(sql);
        }
    }

    /// <summary>
    /// Rolls back unless the server already did: XACT_ABORT (or a deadlock) ends the transaction on the
    /// server, and SqlClient then detaches it from its connection; a second rollback would only throw.
    /// </summary>
    private static async Task RollBackAsync(DbTransaction transaction)
    {
        if (transaction.Connection is null)
        {
            return;
        }

        try
        {
            await transaction.RollbackAsync(CancellationToken.None);
        }
        catch (Exception e) when (e is InvalidOperationException or DbException)
        {
            // The connection broke mid-transaction: the server rolls back on its own, and the caller
            // sees the original fault, which is the one worth reporting.
        }
    }

    private async Task<DbConnection> OpenAsync(string purpose, CancellationToken cancellationToken)
    {
        var connection = openConnection();
        try
        {
            await connection.OpenAsync(cancellationToken);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }

        StoreTelemetry.ConnectionOpened(SqlServerDialect.Provider, purpose);
        DiscardIfCancelledWhileOpen(connection, cancellationToken);
        return connection;
    }

    /// <summary>
    /// A read's connection goes back to its caller, which disposes it: if the call is cancelled (the
    /// resilience pipeline abandons an attempt) while the connection is open, it is discarded, whatever
    /// the command was doing. The registration ends when the connection closes.
    /// </summary>
    private static void DiscardIfCancelledWhileOpen(DbConnection connection, CancellationToken cancellationToken)
    {
        if (!cancellationToken.CanBeCanceled || connection is not SqlConnection)
        {
            return;
        }

        var registration = cancellationToken.Register(static state => ClearPool((DbConnection)state!), connection);
        connection.StateChange += (_, change) =>
        {
            if (change.CurrentState == ConnectionState.Closed)
            {
                registration.Dispose();
            }
        };
    }
}
