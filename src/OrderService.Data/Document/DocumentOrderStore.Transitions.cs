using System.Data;
using System.Data.Common;
using OrderService.Data.Orders;

namespace OrderService.Data.Document;

public sealed partial class DocumentOrderStore
{
    public async Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        var statements = _dialect.TransitionStatements(command);
        var parameters = new DocumentParameters(collection => _dialect.AddTransition(collection, command));
        try
        {
            if (_groupCommit is not null && statements.Count == 1)
            {
                var grouped = await GroupAsync("document.transition", statements[0], command.OrderId, parameters,
                    static row => row.GetString(0), cancellationToken);
                if (grouped is { RanInGroup: true, HasRow: true, Row: { } document })
                {
                    return TransitionResult.Applied(OrderDocument.FromJson(document));
                }

                if (grouped.RanInGroup)
                {
                    return await _connections.WriteAsync(null, (connection, transaction) =>
                        ExplainNoMatchAsync(connection, transaction, command, cancellationToken), cancellationToken);
                }
            }

            return await _connections.WriteAsync(null, async (connection, transaction) =>
                await WriteAsync(connection, transaction, "document.transition", statements, parameters,
                    cancellationToken) is (true, string written)
                    ? TransitionResult.Applied(OrderDocument.FromJson(written))
                    : await ExplainNoMatchAsync(connection, transaction, command, cancellationToken),
                        cancellationToken);
        }
        catch (DbException taken) when (command.IdempotencyKey is not null && _dialect.IsKeyTaken(taken))
        {
            return await _connections.WriteAsync(null, async (connection, transaction) =>
                await AnswerFromKeyAsync(connection, transaction, command, cancellationToken)
                ?? throw new InvalidOperationException(
                    $"The idempotency key of a transition of order {command.OrderId} was reported as stored but " +
                    $"cannot be found."),
                cancellationToken);
        }
    }

    private async Task<TransitionResult> ExplainNoMatchAsync(DbConnection connection, DbTransaction? transaction,
        TransitionCommand command, CancellationToken cancellationToken)
    {
        if (command.IdempotencyKey is not null
            && await AnswerFromKeyAsync(connection, transaction, command, cancellationToken) is { } keyed)
        {
            return keyed;
        }

        using var activity = StoreTelemetry.Command(_dialect.ProviderName, "document.transition_state",
            DocumentQueries.SelectState, _writeIsolationInForce);
        await using var select = Command(connection, transaction, DocumentQueries.SelectState);
        _dialect.AddId(select.Parameters, "id", command.OrderId);
        await using var reader = await select.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken);
        if (!await reader.ReadAsync(cancellationToken))
        {
            return TransitionResult.NotFound;
        }

        var status = Enum.Parse<OrderStatus>(reader.GetString(0));
        return TransitionResult.Rejected(status, reader.GetInt32(1), command.Action, command.ExpectedVersion);
    }

    private async Task<TransitionResult?> AnswerFromKeyAsync(DbConnection connection, DbTransaction? transaction,
        TransitionCommand command, CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(_dialect.ProviderName, "document.transition_key",
            _dialect.SelectTransitionKey, _writeIsolationInForce);
        await using var select = Command(connection, transaction, _dialect.SelectTransitionKey);
        _dialect.AddKeyLookup(select.Parameters, command.IdempotencyKey!, command.OrderId);
        await using var reader = await select.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken);
        if (!await reader.ReadAsync(cancellationToken))
        {
            return null;
        }

        // The key and its document update committed together, so the document read with the key holds the step.
        return OrderDocument.KnownKey(command, reader.GetString(0), reader.GetGuid(1), reader.GetInt32(2),
            reader.IsDBNull(3) ? null : reader.GetString(3));
    }
}
