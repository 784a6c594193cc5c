using System.Data;
using System.Runtime.CompilerServices;
using Npgsql;
using NpgsqlTypes;
using OrderService.Data.Document;
using OrderService.Data.Orders;
using OrderService.Data.Payments;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// The document layout on PostgreSQL: one jsonb document per order, events embedded. A transition is one
/// conditional UPDATE in autocommit (one round trip, one statement); a create is one INSERT (a CTE with the
/// idempotency key). Durability comes from the session settings <see cref="PostgresDatabase"/> applies
/// (synchronous_commit ~ MongoDB j, commit_delay ~ its journal commit interval). With Store:PostgreSql:GroupCommit both
/// writes of concurrent requests travel in one batch and one transaction (<see cref="PostgresGroupCommit"/>).
/// </summary>
public sealed partial class DocumentOrderStore(PostgresDatabase database, StoreOptions options, IPaymentAuthorizer payments) : IOrderStore
{
    private const string Provider = PostgresDatabase.ProviderName;

    // A single statement in autocommit runs at the server default; the WriteIsolation switch applies to
    // the explicit transaction of the declined-payment probe only.
    private const string AutocommitIsolation = "ReadCommitted";

    private const int InListChunkSize = 1_000;

    // Group commit (Store:PostgreSql:GroupCommit) carries the one-statement writes under the same settings as on the
    // relational layout: PerRequest at ReadCommitted. The declined-payment probe's explicit transaction never groups.
    private readonly IGroupCommit? _groupCommit =
        options is { UnitOfWork: UnitOfWork.PerRequest, WriteIsolation: WriteIsolation.ReadCommitted } ? database.GroupCommit : null;

    public async Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken)
    {
        if (_citus && order.IdempotencyKey is { } key)
        {
            order = order with { Order = order.Order with { Id = Citus.CitusOrderIds.ForCreateKey(key) } };
        }

        var stored = OrderDocument.Normalize(order.Order);
        var sql = order.IdempotencyKey is null ? DocumentSql.InsertOrder : _citus ? Citus.CitusDocumentSql.InsertOrderWithKey : DocumentSql.InsertOrderWithKey;
        var parameters = new DocumentCreateParameters(stored, OrderDocument.ToJson(stored), order);
        if (_groupCommit is not null)
        {
            GroupedResult<bool> grouped;
            using (StoreTelemetry.Command(Provider, "document.create", sql, AutocommitIsolation))
            {
                grouped = await _groupCommit.ExecuteAsync(new GroupedStatement(sql, stored.Id, parameters), static _ => true, cancellationToken).ConfigureAwait(false);
            }

            if (grouped.RanInGroup)
            {
                if (grouped.HasRow)
                {
                    return new CreateResult(CreateOutcome.Created, stored);
                }

                await using var afterGroup = await database.OpenAsync("document-create", cancellationToken).ConfigureAwait(false);
                return await ReadExistingAsync(afterGroup, order, cancellationToken).ConfigureAwait(false);
            }
        }

        await using var connection = await database.OpenAsync("document-create", cancellationToken).ConfigureAwait(false);
        object? inserted;
        using (StoreTelemetry.Command(Provider, "document.create", sql, AutocommitIsolation))
        await using (var command = new NpgsqlCommand(sql, connection))
        {
            parameters.AddTo(command.Parameters);
            inserted = await command.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false);
        }

        if (inserted is not null)
        {
            return new CreateResult(CreateOutcome.Created, stored);
        }

        return await ReadExistingAsync(connection, order, cancellationToken).ConfigureAwait(false);
    }

    public async Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenAsync("document-read", cancellationToken).ConfigureAwait(false);
        var document = await SelectDocumentAsync(connection, id, cancellationToken).ConfigureAwait(false);
        return document is null ? null : OrderDocument.FromJson(document);
    }

    /// <summary>
    /// One conditional UPDATE (with an Idempotency-Key, the key INSERT rides in the same statement). Only an
    /// update that matched nothing, or that the key's unique violation aborted, looks the key up: in a
    /// statement of its own, so on a fresh snapshot that sees a concurrent retry's committed key.
    /// </summary>
    public async Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        var payment = payments.PendingFor(command);
        if (_groupCommit is not null && payment is null)
        {
            var sql = TransitionSql(command);
            GroupedResult<string> grouped;
            using (StoreTelemetry.Command(Provider, "document.transition", sql, AutocommitIsolation))
            {
                grouped = await _groupCommit.ExecuteAsync(
                    new GroupedStatement(sql, command.OrderId, new DocumentTransitionParameters(command)), static row => row.GetString(0), cancellationToken).ConfigureAwait(false);
            }

            if (grouped is { RanInGroup: true, HasRow: true, Row: { } document })
            {
                return TransitionResult.Applied(OrderDocument.FromJson(document));
            }

            if (grouped.RanInGroup)
            {
                await using var afterGroup = await database.OpenAsync("document-transition", cancellationToken).ConfigureAwait(false);
                return await ExplainNoMatchAsync(afterGroup, command, cancellationToken).ConfigureAwait(false);
            }
        }

        await using var connection = await database.OpenAsync("document-transition", cancellationToken).ConfigureAwait(false);
        try
        {
            if (payment is not null)
            {
                return await TransitionAwaitingPaymentAsync(connection, command, payment, cancellationToken).ConfigureAwait(false);
            }

            var document = await UpdateAsync(connection, null, command, AutocommitIsolation, cancellationToken).ConfigureAwait(false);
            return document is not null
                ? TransitionResult.Applied(OrderDocument.FromJson(document))
                : await ExplainNoMatchAsync(connection, command, cancellationToken).ConfigureAwait(false);
        }
        catch (PostgresException taken) when (command.IdempotencyKey is not null && IsKeyTaken(taken))
        {
            return await AnswerFromKeyAsync(connection, command, cancellationToken).ConfigureAwait(false)
                ?? throw new InvalidOperationException($"The idempotency key of a transition of order {command.OrderId} was reported as stored but cannot be found.");
        }
    }

    public async IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var distinct = OrderDocument.DistinctIds(ids);
        if (distinct.Length == 0)
        {
            yield break;
        }

        await using var connection = await database.OpenAsync("document-read", cancellationToken).ConfigureAwait(false);
        if (options.BatchFilter == BatchFilter.Json)
        {
            await using var command = new NpgsqlCommand(DocumentSql.SelectManyByArray, connection);
            command.Parameters.Add(new NpgsqlParameter<Guid[]>("ids", NpgsqlDbType.Array | NpgsqlDbType.Uuid) { TypedValue = distinct });
            await foreach (var order in StreamAsync(command, "document.get_many", cancellationToken).ConfigureAwait(false))
            {
                yield return order;
            }

            yield break;
        }

        foreach (var chunk in distinct.Chunk(InListChunkSize))
        {
            await using var command = new NpgsqlCommand(DocumentQueries.SelectManyByList(chunk.Length, DocumentQueries.Positional), connection);
            foreach (var id in chunk)
            {
                command.Parameters.Add(new NpgsqlParameter<Guid> { NpgsqlDbType = NpgsqlDbType.Uuid, TypedValue = id });
            }

            await foreach (var order in StreamAsync(command, "document.get_many", cancellationToken).ConfigureAwait(false))
            {
                yield return order;
            }
        }
    }

    public async Task CheckReadyAsync(CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenAsync("ready", cancellationToken).ConfigureAwait(false);
        using var activity = StoreTelemetry.Command(Provider, "document.ready", DocumentQueries.Ready, AutocommitIsolation);
        await using var command = new NpgsqlCommand(DocumentQueries.Ready, connection);
        await command.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// A pay the gateway holds: the same UPDATE inside an explicit transaction that stays open while the gateway
    /// decides, so concurrent readers could see the write before it is rolled back.
    /// </summary>
    private async Task<TransitionResult> TransitionAwaitingPaymentAsync(
        NpgsqlConnection connection, TransitionCommand command, PendingAuthorization payment, CancellationToken cancellationToken)
    {
        var isolation = options.WriteIsolation switch
        {
            WriteIsolation.Serializable => IsolationLevel.Serializable,
            WriteIsolation.RepeatableRead => IsolationLevel.RepeatableRead,
            _ => IsolationLevel.ReadCommitted,
        };
        await using var transaction = await connection.BeginTransactionAsync(isolation, cancellationToken).ConfigureAwait(false);
        var document = await UpdateAsync(connection, transaction, command, options.WriteIsolation.ToString(), cancellationToken).ConfigureAwait(false);
        if (document is null)
        {
            await transaction.RollbackAsync(cancellationToken).ConfigureAwait(false);
            return await ExplainNoMatchAsync(connection, command, cancellationToken).ConfigureAwait(false);
        }

        // A "no" rolls the key back with the update: the declined step never happened, so a retry is judged afresh.

        if (!await payment(cancellationToken).ConfigureAwait(false))
        {
            await transaction.RollbackAsync(cancellationToken).ConfigureAwait(false);
            return TransitionResult.Declined;
        }

        await transaction.CommitAsync(cancellationToken).ConfigureAwait(false);
        return TransitionResult.Applied(OrderDocument.FromJson(document));
    }

    private async Task<string?> UpdateAsync(
        NpgsqlConnection connection, NpgsqlTransaction? transaction, TransitionCommand command, string isolation, CancellationToken cancellationToken)
    {
        var sql = TransitionSql(command);
        using var activity = StoreTelemetry.Command(Provider, "document.transition", sql, isolation);
        await using var update = new NpgsqlCommand(sql, connection, transaction);
        new DocumentTransitionParameters(command).AddTo(update.Parameters);
        return await update.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false) as string;
    }

    /// <summary>The update matched nothing: the key (when given) decides first, then the order is missing, or its status or version says no.</summary>
    private async Task<TransitionResult> ExplainNoMatchAsync(NpgsqlConnection connection, TransitionCommand command, CancellationToken cancellationToken)
    {
        if (command.IdempotencyKey is not null && await AnswerFromKeyAsync(connection, command, cancellationToken).ConfigureAwait(false) is { } keyed)
        {
            return keyed;
        }

        using var activity = StoreTelemetry.Command(Provider, "document.transition_state", DocumentQueries.SelectState, AutocommitIsolation);
        await using var select = new NpgsqlCommand(DocumentQueries.SelectState, connection);
        select.Parameters.Add(new NpgsqlParameter<Guid>("id", NpgsqlDbType.Uuid) { TypedValue = command.OrderId });
        await using var reader = await select.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken).ConfigureAwait(false);
        if (!await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            return TransitionResult.NotFound;
        }

        var status = Enum.Parse<OrderStatus>(reader.GetString(0));
        return TransitionResult.Rejected(status, reader.GetInt32(1), command.Action, command.ExpectedVersion);
    }

    /// <summary>What a stored key answers (a replay of its step, or a reuse), or null when the key is unknown.</summary>
    private async Task<TransitionResult?> AnswerFromKeyAsync(NpgsqlConnection connection, TransitionCommand command, CancellationToken cancellationToken)
    {
        var sql = _citus ? Citus.CitusDocumentSql.SelectTransitionKey : DocumentSql.SelectTransitionKey;
        using var activity = StoreTelemetry.Command(Provider, "document.transition_key", sql, AutocommitIsolation);
        await using var select = new NpgsqlCommand(sql, connection);
        select.Parameters.Add(new NpgsqlParameter<string>("key", NpgsqlDbType.Varchar) { TypedValue = command.IdempotencyKey });
        AddOrderIdOnCitus(select, command.OrderId);
        await using var reader = await select.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken).ConfigureAwait(false);
        if (!await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            return null;
        }

        // The key and its document update committed together, so the document read with the key holds the step.
        return OrderDocument.KnownKey(command, reader.GetString(0), reader.GetGuid(1), reader.GetInt32(2), reader.IsDBNull(3) ? null : reader.GetString(3));
    }

    private async Task<CreateResult> ReadExistingAsync(NpgsqlConnection connection, NewOrder order, CancellationToken cancellationToken)
    {
        if (order.IdempotencyKey is null)
        {
            var document = await SelectDocumentAsync(connection, order.Order.Id, cancellationToken).ConfigureAwait(false)
                ?? throw new InvalidOperationException($"Order {order.Order.Id} conflicted on insert but cannot be read.");
            return OrderDocument.Existing(order, null, document);
        }

        var sql = _citus ? Citus.CitusDocumentSql.SelectByKey : DocumentSql.SelectByKey;
        using var activity = StoreTelemetry.Command(Provider, "document.create_existing", sql, AutocommitIsolation);
        await using var select = new NpgsqlCommand(sql, connection);
        select.Parameters.Add(new NpgsqlParameter<string>("key", NpgsqlDbType.Varchar) { TypedValue = order.IdempotencyKey });
        AddOrderIdOnCitus(select, order.Order.Id);
        await using var reader = await select.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken).ConfigureAwait(false);
        if (!await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            throw new Keys.IdempotencyKeyForgottenException(order.IdempotencyKey);
        }

        return OrderDocument.Existing(order, reader.GetString(0), reader.GetString(1));
    }

    private static async Task<string?> SelectDocumentAsync(NpgsqlConnection connection, Guid id, CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(Provider, "document.get", DocumentSql.SelectDocument, AutocommitIsolation);
        await using var select = new NpgsqlCommand(DocumentSql.SelectDocument, connection);
        select.Parameters.Add(new NpgsqlParameter<Guid>("id", NpgsqlDbType.Uuid) { TypedValue = id });
        return await select.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false) as string;
    }

    /// <summary>Yields each order as its row arrives: a large batch is never buffered whole.</summary>
    private static async IAsyncEnumerable<Order> StreamAsync(NpgsqlCommand command, string operation, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(Provider, operation, command.CommandText, AutocommitIsolation);
        await using var reader = await command.ExecuteReaderAsync(CommandBehavior.SequentialAccess, cancellationToken).ConfigureAwait(false);
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            yield return OrderDocument.FromJson(reader.GetString(0));
        }
    }
}
