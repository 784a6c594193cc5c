using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.Orders;
using OrderService.Data.Payments;

namespace OrderService.Data.MongoDb;

/// <summary>
/// A pay the gateway holds, in a transaction where the server has them; no reader sees a declined step.
/// </summary>
public sealed partial class MongoOrderStore
{
    private const int TransactionsUnknown = 0, TransactionsAvailable = 1, TransactionsMissing = 2;

    private int _transactions = TransactionsUnknown;

    private async Task<TransitionResult> TransitionAwaitingPaymentAsync(
        TransitionCommand command, PendingAuthorization confirm, CancellationToken cancellationToken) =>
        await HasTransactionsAsync(cancellationToken)
            ? await TransitionInTransactionAsync(command, confirm, cancellationToken)
            : await TransitionConfirmedFirstAsync(command, confirm, cancellationToken);

    private async Task<TransitionResult> TransitionInTransactionAsync(
        TransitionCommand command, PendingAuthorization confirm, CancellationToken cancellationToken)
    {
        using var session = await _client.StartSessionAsync(CausalSession, cancellationToken);
        session.StartTransaction(_transaction);
        Order? after;
        try
        {
            after = await UpdateAsync(session, command, cancellationToken);
        }
        catch (MongoException taken) when (command.IdempotencyKey is not null && MongoUniqueClash.Is(taken))
        {
            // The server aborted the transaction; end it on our side too before the session reads outside it.
            await session.AbortTransactionAsync(cancellationToken);
            return await KeyHolderAnswerAsync(session, command, cancellationToken);
        }

        if (after is null)
        {
            await session.AbortTransactionAsync(cancellationToken);
            return await ExplainNoMatchAsync(session, command, cancellationToken);
        }

        if (!await confirm(cancellationToken))
        {
            await session.AbortTransactionAsync(cancellationToken);
            return TransitionResult.Declined;
        }

        await session.CommitTransactionAsync(cancellationToken);
        return TransitionResult.Applied(after);
    }

    private async Task<TransitionResult> TransitionConfirmedFirstAsync(
        TransitionCommand command, PendingAuthorization confirm, CancellationToken cancellationToken)
    {
        using var session = await StartSessionAsync(cancellationToken);
        var options = new FindOptions<BsonDocument,
            BsonDocument> { Projection = OrderDefinitions.StateOnly, Limit = 1 };
        BsonDocument? applicable;
        using (var cursor = await FindAsync(_explaining, session, OrderDefinitions.Transitionable(command), options,
            cancellationToken))
        {
            applicable = await cursor.FirstOrDefaultAsync(cancellationToken);
        }

        if (applicable is null)
        {
            return await ExplainNoMatchAsync(session, command, cancellationToken);
        }

        return await confirm(cancellationToken)
            ? await ApplyAsync(session, command, cancellationToken)
            : TransitionResult.Declined;
    }

    private async Task<bool> HasTransactionsAsync(CancellationToken cancellationToken)
    {
        var known = Volatile.Read(ref _transactions);
        if (known != TransactionsUnknown)
        {
            return known == TransactionsAvailable;
        }

        var admin = _client.GetDatabase("admin");
        var hello = await admin.RunCommandAsync<BsonDocument>(new BsonDocument("hello", 1), ReadPreference.Primary,
            cancellationToken);
        var replicated = hello.Contains("setName") || hello.GetValue("msg", "").Equals(new BsonString("isdbgrid"));
        // FerretDB may report a set name yet has no transactions: a declined step would stay written.
        var available = replicated
            && !(await admin.RunCommandAsync<BsonDocument>(new BsonDocument("buildInfo", 1), ReadPreference.Primary,
                cancellationToken)).Contains("ferretdb");
        Volatile.Write(ref _transactions, available ? TransactionsAvailable : TransactionsMissing);
        return available;
    }
}
