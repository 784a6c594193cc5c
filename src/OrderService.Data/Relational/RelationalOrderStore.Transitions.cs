using System.Data.Common;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

/// <summary>
/// The transition flows: PerRequest writes and reads back in one command; PerCall reads, then writes by version.
/// </summary>
public sealed partial class RelationalOrderStore
{
    public async Task<TransitionResult> TransitionAsync(TransitionCommand command,
        CancellationToken cancellationToken)
    {
        try
        {
            return _perCall || _strictTransitionsReadFirst
                ? await TransitionPerCallAsync(command, cancellationToken)
                : await TransitionPerRequestAsync(command, cancellationToken);
        }
        catch (Exception taken) when (command.IdempotencyKey is not null && _dialect.IsIdempotencyKeyTaken(taken))
        {
            return await AnswerFromKeyInOwnUnitAsync(command, cancellationToken)
                ?? throw new InvalidOperationException(
                    $"The idempotency key of a transition of order {command.OrderId} was reported as stored but " +
                    $"cannot be found.");
        }
    }

    private async Task<TransitionResult> TransitionPerRequestAsync(TransitionCommand command,
        CancellationToken cancellationToken)
    {
        var sql = _dialect.Transition(command.Action, command.ExpectedVersion.HasValue,
            command.IdempotencyKey is not null);
        var parameters = TransitionParameters(command, command.ExpectedVersion);
        if (_groupCommit is not null)
        {
            GroupedResult<Order> grouped;
            using (StoreTelemetry.Command(_dialect.ProviderName, "transition", sql, _writeIsolationInForce))
            {
                grouped = await _groupCommit.ExecuteAsync(new GroupedStatement(sql, command.OrderId, parameters),
                    OrderRowReader.Read, cancellationToken);
            }

            if (grouped.RanInGroup)
            {
                return grouped is { HasRow: true, Row: { } written } && HasEveryEvent(written)
                    ? TransitionResult.Applied(written)
                    : await _connections.WriteAsync(null, (connection, transaction) =>
                        AnswerAfterWriteAsync(connection, transaction, command, grouped.HasRow, grouped.Row,
                            cancellationToken).AsTask(), cancellationToken);
            }
        }

        return await _connections.WriteAsync(_writeTransaction, async (connection, transaction) =>
        {
            var order = await ReadFirstAsync(connection, transaction, "transition", sql, parameters,
                _writeIsolationInForce, OrderRowReader.Read, cancellationToken);
            return await AnswerAfterWriteAsync(connection, transaction, command, order is not null, order,
                cancellationToken);
        }, cancellationToken);
    }

    private async ValueTask<TransitionResult> AnswerAfterWriteAsync(
        DbConnection connection, DbTransaction? transaction, TransitionCommand command, bool applied, Order? order,
            CancellationToken cancellationToken)
    {
        if (order is null || !HasEveryEvent(order))
        {
            order = await RereadAfterWriteAsync(connection, transaction, command.OrderId,
                applied ? order?.Version : null, cancellationToken);
        }

        if (applied && order is not null)
        {
            return TransitionResult.Applied(order);
        }

        if (command.IdempotencyKey is not null
            && await AnswerFromKeyAsync(connection, transaction, command, order, cancellationToken) is { } keyed)
        {
            return keyed;
        }

        return order is null
            ? TransitionResult.NotFound
            : TransitionResult.Rejected(order.Status, order.Version, command.Action, command.ExpectedVersion);
    }

    private async Task<TransitionResult> TransitionPerCallAsync(TransitionCommand command,
        CancellationToken cancellationToken)
    {
        var withKey = command.IdempotencyKey is not null;
        var current = await GetAsync(command.OrderId, cancellationToken);
        if (current is null || Transitions.Decide(current.Status, current.Version, command.Action,
            command.ExpectedVersion) != TransitionVerdict.Allowed)
        {
            // The key first: a retry whose first attempt applied finds the order moved on.
            if (withKey && await AnswerFromKeyInOwnUnitAsync(command, cancellationToken) is { } keyed)
            {
                return keyed;
            }

            return current is null
                ? TransitionResult.NotFound
                : TransitionResult.Rejected(current.Status, current.Version, command.Action, command.ExpectedVersion);
        }

        // The version just read guards the write: a concurrent writer in between makes it match nothing.
        var sql = _dialect.TransitionWrite(command.Action, checksVersion: true, withKey);
        var parameters = TransitionParameters(command, current.Version);
        var answer = await _connections.WriteAsync(_writeTransaction, async (connection, transaction) =>
        {
            if (await ReadFirstAsync(connection, transaction, "transition.write", sql, parameters,
                _writeIsolationInForce, static _ => true, cancellationToken))
            {
                return TransitionResult.Applied(Transitions.Apply(current, command.Action, command.At, command.Data));
            }

            return withKey ? await AnswerFromKeyAsync(connection, transaction, command, null, cancellationToken)
                : null;
        }, cancellationToken);
        if (answer is not null)
        {
            return answer;
        }

        var latest = await GetAsync(command.OrderId, cancellationToken) ?? current;
        return TransitionResult.Rejected(latest.Status, latest.Version, command.Action,
            command.ExpectedVersion ?? current.Version);
    }

    private static bool HasEveryEvent(Order order) =>
        order.Events.Count == order.Version && (order.Version == 0 || order.Events[^1].Sequence == order.Version);

    private async Task<Order?> RereadAfterWriteAsync(DbConnection connection, DbTransaction? transaction, Guid id,
        int? writtenVersion, CancellationToken cancellationToken)
    {
        var order = await ReadOrderAsync(connection, transaction, "transition.reread", id, _writeIsolationInForce,
            cancellationToken);
        return order is not null && writtenVersion is { } version ? OrderHistory.AsOf(order, version) : order;
    }

    private async Task<TransitionResult?> AnswerFromKeyAsync(
        DbConnection connection, DbTransaction? transaction, TransitionCommand command, Order? current,
            CancellationToken cancellationToken)
    {
        if (await ReadStoredKeyAsync(connection, transaction, command.IdempotencyKey!, command.OrderId,
            "transition.key", _writeIsolationInForce, cancellationToken)
            is not { } stored)
        {
            return null;
        }

        var (storedHash, storedOrderId, storedVersion) = stored;

        if (!command.IsSameRequestAs(storedHash, storedOrderId))
        {
            return TransitionResult.KeyReused;
        }

        // The key and its event committed together: an order read after the key holds the step.
        var order = current is not null && current.Version >= storedVersion
            ? current
            : await ReadOrderAsync(connection, transaction, "transition.replay", command.OrderId,
                _writeIsolationInForce, cancellationToken)
                ?? throw new InvalidOperationException(
                    $"Idempotency key of order {command.OrderId} is stored, but the order does not exist.");
        return TransitionResult.Replayed(order, storedVersion);
    }

    private Task<TransitionResult?> AnswerFromKeyInOwnUnitAsync(TransitionCommand command,
        CancellationToken cancellationToken) =>
        _connections.WriteAsync(null, (connection, transaction) =>
            AnswerFromKeyAsync(connection, transaction, command, null, cancellationToken), cancellationToken);

    private StatementArguments TransitionParameters(TransitionCommand command, int? expected)
    {
        var parameters = new StatementArguments()
            .Value("Id", _dialect.Id(command.OrderId))
            .Value("At", _dialect.Timestamp(command.At))
            .Text("Data", OrderJson.EventData(command.Data));
        if (expected is { } version)
        {
            parameters.Int32("Expected", version);
        }

        return parameters.Key(command.IdempotencyKey, command.RequestHash);
    }
}
