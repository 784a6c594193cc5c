using System.Data;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

/// <summary>
/// The transition flows. PerRequest: one command writes (status + version + event, atomically) and reads
/// the order back, on one connection: one round trip where the engine allows it. PerCall: read on one
/// connection, decide with the pure rules, then a conditional write (expected version = the version
/// read) on another, and the answer is built in memory with <see cref="Transitions.Apply"/>.
/// </summary>
public sealed partial class RelationalOrderStore
{
    public Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken) =>
        _perCall ? TransitionPerCallAsync(command, cancellationToken) : TransitionPerRequestAsync(command, cancellationToken);

    private async Task<TransitionResult> TransitionPerRequestAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        var sql = _dialect.Transition(command.Action, command.ExpectedVersion.HasValue);
        var parameters = TransitionParameters(command, command.ExpectedVersion);
        try
        {
            return await _connections.WriteAsync(TransactionFor(command), async (connection, transaction) =>
            {
                bool applied;
                Order? order = null;
                using (StoreTelemetry.Command(_dialect.ProviderName, "transition", sql, _writeIsolationInForce))
                {
                    await using var reader = await ExecuteReaderAsync(connection, transaction, sql, parameters, cancellationToken);
                    applied = await reader.ReadAsync(cancellationToken);
                    if (await reader.NextResultAsync(cancellationToken) && await reader.ReadAsync(cancellationToken))
                    {
                        order = OrderRowReader.Read(reader);
                    }
                }

                if (order is null)
                {
                    return TransitionResult.NotFound;
                }

                if (!applied)
                {
                    return TransitionResult.Rejected(order.Status, order.Version, command.Action, command.ExpectedVersion);
                }

                await ConfirmOrRollBackAsync(command, cancellationToken);
                return TransitionResult.Applied(order);
            }, cancellationToken);
        }
        catch (DeclinedWrite)
        {
            return TransitionResult.Declined;
        }
    }

    private async Task<TransitionResult> TransitionPerCallAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        var current = await GetAsync(command.OrderId, cancellationToken);
        if (current is null)
        {
            return TransitionResult.NotFound;
        }

        if (Transitions.Decide(current.Status, current.Version, command.Action, command.ExpectedVersion) != TransitionVerdict.Allowed)
        {
            return TransitionResult.Rejected(current.Status, current.Version, command.Action, command.ExpectedVersion);
        }

        // The version just read guards the write: a concurrent writer in between makes it match nothing.
        var sql = _dialect.TransitionWrite(command.Action, checksVersion: true);
        var parameters = TransitionParameters(command, current.Version);
        bool applied;
        try
        {
            applied = await _connections.WriteAsync(TransactionFor(command), async (connection, transaction) =>
            {
                using (StoreTelemetry.Command(_dialect.ProviderName, "transition.write", sql, _writeIsolationInForce))
                {
                    await using var reader = await ExecuteReaderAsync(connection, transaction, sql, parameters, cancellationToken);
                    if (!await reader.ReadAsync(cancellationToken))
                    {
                        return false;
                    }
                }

                await ConfirmOrRollBackAsync(command, cancellationToken);
                return true;
            }, cancellationToken);
        }
        catch (DeclinedWrite)
        {
            return TransitionResult.Declined;
        }

        if (applied)
        {
            return TransitionResult.Applied(Transitions.Apply(current, command.Action, command.At, command.Data));
        }

        var (status, version) = await ReadStatusAndVersionAsync(command.OrderId, cancellationToken) ?? (current.Status, current.Version);
        return TransitionResult.Rejected(status, version, command.Action, command.ExpectedVersion ?? current.Version);
    }

    /// <summary>An explicit transaction when the isolation asks for one, or when a confirmation must run before the commit.</summary>
    private IsolationLevel? TransactionFor(TransitionCommand command) =>
        command.ConfirmBeforeCommit is null ? _writeTransaction : _writeTransaction ?? IsolationLevel.ReadCommitted;

    private object TransitionParameters(TransitionCommand command, int? expected) => new
    {
        Id = _dialect.Id(command.OrderId),
        At = _dialect.Timestamp(command.At),
        Data = OrderJson.EventData(command.Data),
        Expected = expected,
    };

    private static async Task ConfirmOrRollBackAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        if (command.ConfirmBeforeCommit is { } confirm && !await confirm(cancellationToken))
        {
            // Thrown inside the unit of work so that the provider rolls the write back.
            throw new DeclinedWrite();
        }
    }

    private async Task<(OrderStatus Status, int Version)?> ReadStatusAndVersionAsync(Guid id, CancellationToken cancellationToken)
    {
        var sql = _dialect.SelectStatusAndVersion;
        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        using (StoreTelemetry.Command(_dialect.ProviderName, "transition.reread", sql, _connections.ReadIsolationInForce))
        {
            await using var reader = await ExecuteReaderAsync(connection, null, sql, new { Id = _dialect.Id(id) }, cancellationToken);
            return await reader.ReadAsync(cancellationToken)
                ? (OrderRowReader.ParseStatus(reader.GetString(0)), reader.GetInt32(1))
                : null;
        }
    }

    /// <summary>A confirmation said no: thrown inside the unit so it rolls back, caught as <see cref="TransitionOutcome.Declined"/>.</summary>
    private sealed class DeclinedWrite : Exception
    {
        public DeclinedWrite()
            : base("The transition was declined before commit.")
        {
        }
    }
}
