using System.Data.Common;

namespace OrderService.Data.Relational;

/// <summary>
/// Group commit for an engine behind a network: the one statement of many concurrent write units is sent
/// together (one round trip) and runs in ONE transaction (one commit, one WAL flush), and each unit is answered
/// only once that transaction committed. The engine (<see cref="RelationalOrderStore"/>) uses it for the
/// PerRequest writes whose unit is a single statement that returns one result set of at most one row
/// (<see cref="SqlDialect.CreateLooksUpKeySeparately"/>, <see cref="SqlDialect.TransitionReturnsWrittenOrder"/>).
/// What runs after that statement (a re-read, a key lookup) runs after the commit, on a connection of its own.
/// </summary>
public interface IGroupCommit
{
    /// <summary>
    /// Sends <paramref name="statement"/> with the others queued meanwhile. <paramref name="readRow"/> maps its row, when
    /// there is one; its value is handed back only after the group committed. When the group failed on an error the server
    /// reported (so it rolled back whole: a constraint, a deadlock), the answer is <see cref="GroupedResult{T}.RanInGroup"/>
    /// false and the caller runs the unit on its own, exactly as without group commit. A fault that may have left the group
    /// committed (a connection lost, a time-out) is thrown, for the caller's own rerun rule.
    /// </summary>
    Task<GroupedResult<T>> ExecuteAsync<T>(GroupedStatement statement, Func<DbDataReader, T> readRow, CancellationToken cancellationToken);
}

/// <summary>
/// One write unit's statement. <paramref name="OrderId"/> orders the statements of a group: every group takes its row locks
/// in order id order, so two groups in flight at once cannot deadlock on each other's orders.
/// </summary>
public readonly record struct GroupedStatement(string Sql, Guid OrderId, IStatementParameters Parameters);

/// <summary>
/// What a grouped statement returned: whether it ran in a committed group, and its row if it had one. The default value
/// (not run in a group) tells the caller to run its unit on its own.
/// </summary>
public readonly record struct GroupedResult<T>(bool RanInGroup, bool HasRow, T? Row);
