using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Orders;
using OrderService.Data.Payments;

namespace OrderService.Data.MongoDb;

/// <summary>
/// Transitions: one findOneAndUpdate each, which with a key also stores its entry (<see cref="OrderDefinitions.Transition"/>).
/// A write that matched nothing, or met the key on another order (<see cref="MongoUniqueClash"/>), reads the order
/// holding the key on the primary: the same order and request hash replays (<see cref="OrderHistory.AsOf"/>), anything
/// else is 422; no holder means 404 or 409 as without a key.
/// </summary>
public sealed partial class MongoOrderStore
{
    public async Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        if (_payments.PendingFor(command) is { } payment)
        {
            return await TransitionAwaitingPaymentAsync(command, payment, cancellationToken);
        }

        using var session = await StartSessionAsync(cancellationToken);
        return await ApplyAsync(session, command, cancellationToken);
    }

    /// <summary>The one conditional write, then (when it matched nothing or met the key on another order) the read that explains why.</summary>
    private async Task<TransitionResult> ApplyAsync(IClientSessionHandle? session, TransitionCommand command, CancellationToken cancellationToken)
    {
        Order? after;
        try
        {
            after = await UpdateAsync(session, command, cancellationToken);
        }
        catch (MongoException taken) when (command.IdempotencyKey is not null && MongoUniqueClash.Is(taken))
        {
            return await KeyHolderAnswerAsync(session, command, cancellationToken);
        }

        return after is not null
            ? TransitionResult.Applied(after)
            : await ExplainNoMatchAsync(session, command, cancellationToken);
    }

    private async Task<Order?> UpdateAsync(IClientSessionHandle? session, TransitionCommand command, CancellationToken cancellationToken)
    {
        var filter = OrderDefinitions.Transitionable(command);
        var update = OrderDefinitions.Transition(command);
        var options = new FindOneAndUpdateOptions<BsonDocument, Order> { ReturnDocument = ReturnDocument.After, Projection = OrderDefinitions.WithoutKeys };
        return await (session is null
            ? _orders.FindOneAndUpdateAsync(filter, update, options, cancellationToken)
            : _orders.FindOneAndUpdateAsync(session, filter, update, options, cancellationToken));
    }

    /// <summary>The update matched nothing: the key (when given) decides first, then the order is missing, or its status or version says no. Asked of the primary.</summary>
    private async Task<TransitionResult> ExplainNoMatchAsync(IClientSessionHandle? session, TransitionCommand command, CancellationToken cancellationToken)
    {
        if (command.IdempotencyKey is { } key && await AnswerFromKeyAsync(session, command, key, cancellationToken) is { } keyed)
        {
            return keyed;
        }

        var options = new FindOptions<BsonDocument, BsonDocument> { Projection = OrderDefinitions.StateOnly, Limit = 1 };
        using var cursor = await FindAsync(_explaining, session, OrderDefinitions.ById(command.OrderId), options, cancellationToken);
        var state = await cursor.FirstOrDefaultAsync(cancellationToken);
        return state is null
            ? TransitionResult.NotFound
            : TransitionResult.Rejected(Enum.Parse<OrderStatus>(state[OrderBson.Status].AsString), state[OrderBson.Version].AsInt32, command.Action, command.ExpectedVersion);
    }

    /// <summary>The write met the key on another order (E11000): that order's entry answers.</summary>
    private async Task<TransitionResult> KeyHolderAnswerAsync(IClientSessionHandle? session, TransitionCommand command, CancellationToken cancellationToken) =>
        await AnswerFromKeyAsync(session, command, command.IdempotencyKey!, cancellationToken)
        ?? throw new InvalidOperationException($"The Idempotency-Key of a transition of order {command.OrderId} was reported as stored but cannot be found.");

    /// <summary>What a stored key answers (a replay of its step, or a reuse), or null when no order holds it.</summary>
    private async Task<TransitionResult?> AnswerFromKeyAsync(IClientSessionHandle? session, TransitionCommand command, string key, CancellationToken cancellationToken)
    {
        var holder = await FindKeyedAsync(session, OrderDefinitions.ByKey(key), key, cancellationToken);
        if (holder?.Key is not { } stored)
        {
            return null;
        }

        // The entry and its event were written by one update, so the document read with the entry holds the step.
        return command.IsSameRequestAs(stored.RequestHash, holder.Order.Id)
            ? TransitionResult.Replayed(holder.Order, stored.Version)
            : TransitionResult.KeyReused;
    }
}
