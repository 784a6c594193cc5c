using System.Data;
using System.Data.Common;
using Dapper;
using Microsoft.Data.SqlClient;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

/// <summary>
/// SQL Server units of work; a cancelled command's connection leaves the pool: Babelfish may still run it.
/// </summary>
public sealed class SqlServerConnections(Func<DbConnection> openConnection, ReadIsolation readIsolation)
    : IRelationalConnections
{
    public string ReadIsolationInForce { get; } = readIsolation == ReadIsolation.ReadUncommitted
        ? "ReadUncommitted (NOLOCK)"
        : "ReadCommitted";

    public string WriteIsolationInForce(IsolationLevel requested) => requested.ToString();

    public async ValueTask<DbConnection> OpenReaderAsync(CancellationToken cancellationToken) =>
        await OpenAsync("read", cancellationToken);

    public async Task<T> WriteAsync<T>(IsolationLevel? isolation, Func<DbConnection, DbTransaction?, Task<T>> work,
        CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync("write", cancellationToken);

        // Disposing a transaction that did not commit rolls it back; on a broken connection the server does.
        await using var transaction = isolation is { } level
            ? await connection.BeginTransactionAsync(level, cancellationToken)
            : null;
        try
        {
            var result = await work(connection, transaction);
            if (transaction is not null)
            {
                await transaction.CommitAsync(cancellationToken);
            }

            return result;
        }
        catch (Exception fault)
        {
            Discard(connection, fault);
            throw;
        }
    }

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

    public void Discard(DbConnection connection, Exception fault)
    {
        if (IsAbandoned(fault) || StoreErrors.IsDriverFault(fault, SqlServerTransientFaults.Instance))
        {
            ClearPool(connection);
        }
    }

    private static bool IsAbandoned(Exception fault) =>
        fault is OperationCanceledException
            || (fault is SqlException sql && sql.Errors.Cast<SqlError>().Any(e => e.Number == -2));

    private static void ClearPool(DbConnection connection)
    {
        if (connection is SqlConnection sql)
        {
            SqlConnection.ClearPool(sql);
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
