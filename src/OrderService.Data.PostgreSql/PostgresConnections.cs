using System.Data;
using System.Data.Common;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

/// <summary>PostgreSQL units of work; a multi-statement command is one implicit transaction, so atomic.</summary>
public sealed class PostgresConnections(PostgresDatabase database) : IRelationalConnections
{
    /// <summary>PostgreSQL never reads uncommitted rows: READ UNCOMMITTED behaves as READ COMMITTED.</summary>
    public string ReadIsolationInForce => nameof(IsolationLevel.ReadCommitted);

    public string WriteIsolationInForce(IsolationLevel requested) =>
        requested == IsolationLevel.ReadUncommitted ? nameof(IsolationLevel.ReadCommitted) : requested.ToString();

    public IGroupCommit? GroupCommit => database.GroupCommit;

    public async ValueTask<DbConnection> OpenReaderAsync(CancellationToken cancellationToken) =>
        await database.OpenAsync("read", cancellationToken);

    public async Task<T> WriteAsync<T>(IsolationLevel? isolation, Func<DbConnection, DbTransaction?, Task<T>> work,
        CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenAsync("write", cancellationToken);
        try
        {
            if (isolation is not { } level)
            {
                return await work(connection, null);
            }

            await using var transaction = await connection.BeginTransactionAsync(level, cancellationToken);
            var result = await work(connection, transaction);
            await transaction.CommitAsync(cancellationToken);
            return result;
        }
        catch (Exception fault)
        {
            database.DiscardAfter(fault);
            throw;
        }
    }

    public void Discard(DbConnection connection, Exception fault) => database.DiscardAfter(fault);
}
