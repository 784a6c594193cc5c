using System.Data;
using System.Data.Common;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

/// <summary>
/// How the SQL Server store opens connections and commits a write unit. Reads open a pooled connection
/// at the session default (READ COMMITTED); Store:ReadIsolation=ReadUncommitted is carried by the
/// NOLOCK hints in the text (<see cref="SqlServerDialect"/>), so it is visible in every statement.
/// A write with an isolation level runs in SqlConnection.BeginTransaction(level), which sets
/// SET TRANSACTION ISOLATION LEVEL for the transaction; without one, the command is atomic on its own.
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
            return await work(connection, null);
        }

        await using var transaction = await connection.BeginTransactionAsync(level, cancellationToken);
        try
        {
            var result = await work(connection, transaction);
            await transaction.CommitAsync(cancellationToken);
            return result;
        }
        catch
        {
            await RollBackAsync(transaction);
            throw;
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
        return connection;
    }
}
