using System.Data;
using System.Data.Common;
using System.Runtime.CompilerServices;
using Dapper;
using Microsoft.Data.Sqlite;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

/// <summary>SQLite units of work: writes are serialized whatever Store:WriteIsolation says (one writer).</summary>
public sealed class SqliteConnections(SqliteDatabase database) : IRelationalConnections
{
    private readonly ConditionalWeakTable<SqliteConnection, SqlitePreparedStatements> _writerStatements = [];

    public string ReadIsolationInForce =>
        database.ReadsUncommitted ? nameof(IsolationLevel.ReadUncommitted) : nameof(IsolationLevel.ReadCommitted);

    public string WriteIsolationInForce(IsolationLevel requested) => nameof(IsolationLevel.Serializable);

    public bool SerializesWrites => true;

    public ValueTask<DbConnection> OpenReaderAsync(CancellationToken cancellationToken) =>
        ValueTask.FromResult<DbConnection>(database.OpenReader());

    /// <remarks>
    /// The work runs synchronously on the writer: Microsoft.Data.Sqlite completes its async methods synchronously.
    /// </remarks>
    public Task<T> WriteAsync<T>(IsolationLevel? isolation, Func<DbConnection, DbTransaction?, Task<T>> work,
        CancellationToken cancellationToken) =>
        database.WriteAsync(connection =>
        {
            if (database.UsesGroupCommit)
            {
                // The group writer's connection lives as long as the writer: its statements can stay prepared.
                _writerStatements.GetValue(connection, static _ => new SqlitePreparedStatements());
            }

            return work(connection, null).GetAwaiter().GetResult();
        }, cancellationToken);

    public Task<DbDataReader> ExecuteReaderAsync(DbConnection connection, CommandDefinition command) =>
        connection is SqliteConnection sqlite && _writerStatements.TryGetValue(sqlite, out var statements)
            ? Task.FromResult(statements.ExecuteReader(sqlite, command))
            : connection.ExecuteReaderAsync(command);
}
