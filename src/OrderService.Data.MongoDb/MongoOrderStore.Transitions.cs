using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Orders;

namespace OrderService.Data.MongoDb;

/// <summary>Transitions: one findOneAndUpdate each, which with a key also stores its entry.</summary>
public sealed partial class MongoOrderStore
{
    public async Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        var filter = OrderDefinitions.Transitionable(command);
        var update = OrderDefinitions.Transition(command);
        var options = new FindOneAndUpdateOptions<BsonDocument,
            Order> { ReturnDocument = ReturnDocument.After, Projection = OrderDefinitions.WithoutKeys };
        using var session = await StartSessionAsync(cancellationToken);
        Order? after;
        try
        {
            after = await (session is null
                ? Orders.FindOneAndUpdateAsync(filter, update, options, cancellationToken)
                : Orders.FindOneAndUpdateAsync(session, filter, update, options, cancellationToken));
        }
        catch (MongoException taken) when (command.IdempotencyKey is not null && MongoUniqueClash.Is(taken))
        {
            return await AnswerFromKeyAsync(session, command, command.IdempotencyKey, cancellationToken)
                ?? throw new InvalidOperationException("The Idempotency-Key of a transition of order " +
                    $"{command.OrderId} was reported as stored but cannot be found.");
        }

        return after is not null
            ? TransitionResult.Applied(after)
            : await ExplainNoMatchAsync(session, command, cancellationToken);
    }

    private async Task<TransitionResult> ExplainNoMatchAsync(IClientSessionHandle? session, TransitionCommand command,
        CancellationToken cancellationToken)
    {
        if (command.IdempotencyKey is { } key
            && await AnswerFromKeyAsync(session, command, key, cancellationToken) is { } keyed)
        {
            return keyed;
        }

        var options = new FindOptions<BsonDocument,
            BsonDocument> { Projection = OrderDefinitions.StateOnly, Limit = 1 };
        using var cursor = await FindAsync(_explaining, session, OrderDefinitions.ById(command.OrderId), options,
            cancellationToken);
        var state = await cursor.FirstOrDefaultAsync(cancellationToken);
        return state is null
            ? TransitionResult.NotFound
            : TransitionResult.Rejected(Enum.Parse<OrderStatus>(state[OrderBson.Status].AsString),
                state[OrderBson.Version].AsInt32, command.Action, command.ExpectedVersion);
    }

    private async Task<TransitionResult?> AnswerFromKeyAsync(IClientSessionHandle? session, TransitionCommand command,
        string key, CancellationToken cancellationToken)
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
