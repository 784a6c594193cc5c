using System.Data;
using System.Data.Common;
using System.Runtime.CompilerServices;
using Dapper;
using Microsoft.Data.SqlClient;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

/// <summary>
/// How the SQL Server store opens connections and commits a write unit. Reads open a pooled connection
/// at the session default (READ COMMITTED); Store:ReadIsolation=ReadUncommitted is carried by the
/// NOLOCK hints in the text (<see cref="SqlServerDialect"/>), so it is visible in every statement.
/// A write with an isolation level runs in SqlConnection.BeginTransaction(level), which sets
/// SET TRANSACTION ISOLATION LEVEL for the transaction; without one, the command is atomic on its own.
/// <para>
/// A connection whose command was cancelled or timed out never goes back to the pool. SQL Server stops the
/// statement when the client's cancel (a TDS attention) arrives; Babelfish reads it only between requests,
/// so the statement may still be running, and the next borrower of that session would wait behind it or
/// find it unusable. The connection is discarded instead: SqlConnection.ClearPool marks it (and the idle
/// ones of its pool) to be closed rather than pooled.
/// </para>
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
        // A write's connection is never cleared with its whole pool (see Quarantine): on Babelfish every session
        // compiles each statement shape again, and logins are slow, so a pool emptied on every abandoned create made
        // the next hundred requests start on cold sessions, time out in turn, and empty it again.
        var connection = await OpenAsync("write", cancellationToken, discardOnCancel: false);
        _writes.AddOrUpdate(connection, Marker);
        var abandoned = false;
        try
        {
            if (isolation is not { } level)
            {
                try
                {
                    return await work(connection, null);
                }
                catch (Exception fault) when (IsAbandoned(fault))
                {
                    abandoned = true;
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
                abandoned = IsAbandoned(fault);
                await RollBackAsync(transaction);
                throw;
            }
        }
        finally
        {
            // The transaction (declared in the try block) is disposed by now: the quarantine is the connection's only user.
            if (!(abandoned && Quarantine(connection)))
            {
                _writes.Remove(connection);
                await connection.DisposeAsync();
            }
        }
    }

    /// <summary>The one command path of the engine (Dapper), with a timed-out command's connection discarded.</summary>
    public async Task<DbDataReader> ExecuteReaderAsync(DbConnection connection, CommandDefinition command)
    {
        try
        {
            return await connection.ExecuteReaderAsync(command);
        }
        catch (Exception fault) when (IsAbandoned(fault))
        {
            // A write's connection is quarantined by WriteAsync instead.
            if (!_writes.TryGetValue(connection, out _))
            {
                Discard(connection);
            }

            throw;
        }
    }

    private static readonly object Marker = new();

    /// <summary>The connections WriteAsync owns: their abandoned commands are quarantined, not discarded with the pool.</summary>
    private readonly ConditionalWeakTable<DbConnection, object> _writes = new();

    /// <summary>
    /// Keeps an abandoned write's connection away from every borrower until its session answers again, then gives it
    /// back to the pool warm. Babelfish reads the client's cancel only between requests, so the abandoned batch (and
    /// its transaction, which XACT_ABORT or the server's rollback ends) may still run: a <c>SELECT 1</c> on the same
    /// session queues behind it and returns once the session is free. A session that does not answer in time, or
    /// breaks, is closed for good (SqlClient never pools a broken connection; ClearPool covers one that is merely
    /// slow). Only this connection is held; the warm sessions of the pool stay.
    /// </summary>
    /// <returns>True: the connection now belongs to the quarantine, which disposes it.</returns>
    private static bool Quarantine(DbConnection connection)
    {
        if (connection is not SqlConnection sql)
        {
            return false;
        }

        _ = Task.Run(async () =>
        {
            try
            {
                await using var probe = new SqlCommand("IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION; SELECT 1;", sql) { CommandTimeout = QuarantineSeconds };
                await probe.ExecuteScalarAsync(CancellationToken.None);
            }
            catch (Exception fault) when (fault is DbException or InvalidOperationException)
            {
                SqlConnection.ClearPool(sql);
            }
            finally
            {
                await sql.DisposeAsync();
            }
        });
        return true;
    }

    /// <summary>How long a quarantined session may take to finish its abandoned batch before it is closed for good.</summary>
    private const int QuarantineSeconds = 120;

    /// <summary>A command the client gave up on: SqlClient's command time-out (-2), or the caller's cancellation.</summary>
    private static bool IsAbandoned(Exception fault) =>
        fault is OperationCanceledException || (fault is SqlException sql && sql.Errors.Cast<SqlError>().Any(e => e.Number == -2));

    /// <summary>Closes <paramref name="connection"/> for good when it is next closed, instead of returning it to the pool.</summary>
    private static void Discard(DbConnection connection)
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

    private async Task<DbConnection> OpenAsync(string purpose, CancellationToken cancellationToken, bool discardOnCancel = true)
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
        if (discardOnCancel)
        {
            DiscardIfCancelledWhileOpen(connection, cancellationToken);
        }

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

        var registration = cancellationToken.Register(static state => Discard((DbConnection)state!), connection);
        connection.StateChange += (_, change) =>
        {
            if (change.CurrentState == ConnectionState.Closed)
            {
                registration.Dispose();
            }
        };
    }
}
