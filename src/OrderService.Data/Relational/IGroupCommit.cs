using System.Data.Common;

namespace OrderService.Data.Relational;

/// <summary>Group commit for an engine behind a network.</summary>
public interface IGroupCommit
{
    /// <summary>
    /// Sends <paramref name="statement"/> with others; answers after the commit, RanInGroup false when the group rolled
    /// back, and throws when it may have committed.
    /// </summary>
    Task<GroupedResult<T>> ExecuteAsync<T>(GroupedStatement statement, Func<DbDataReader, T> readRow,
        CancellationToken cancellationToken);
}

/// <summary>One write unit's statement; groups lock orders by OrderId, so two groups cannot deadlock.</summary>
public readonly record struct GroupedStatement(string Sql, Guid OrderId, IStatementParameters Parameters);

public readonly record struct GroupedResult<T>(bool RanInGroup, bool HasRow, T? Row);
