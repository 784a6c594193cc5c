using System.Data;
using System.Data.Common;
using System.Runtime.CompilerServices;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Data.Document;

/// <summary>The document layout on every SQL engine: one JSON document per order, events embedded.</summary>
public sealed partial class DocumentOrderStore : IOrderStore
{
    // The ids of one InList batch command; far below every engine's parameter limit.
    private const int InListChunkSize = 1_000;

    private readonly DocumentDialect _dialect;
    private readonly IRelationalConnections _connections;
    private readonly bool _jsonBatchFilter;

    // A unit of single statements needs no explicit transaction: its isolation is the engine's default write level.
    private readonly string _writeIsolationInForce;

    // Group commit carries the one-statement writes under the same settings as on the relational layout.
    private readonly IGroupCommit? _groupCommit;

    public DocumentOrderStore(DocumentDialect dialect, IRelationalConnections connections, StoreOptions options)
    {
        _dialect = dialect;
        _connections = connections;
        _jsonBatchFilter = options.BatchFilter == BatchFilter.Json;
        _writeIsolationInForce = connections.WriteIsolationInForce(IsolationLevel.ReadCommitted);
        _groupCommit = options is { UnitOfWork: UnitOfWork.PerRequest, WriteIsolation: WriteIsolation.ReadCommitted }
            ? connections.GroupCommit : null;
    }

    public async Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken)
    {
        if (order.IdempotencyKey is { } key && _dialect.CreatedOrderId(key) is { } keyedId)
        {
            order = order with { Order = order.Order with { Id = keyedId } };
        }

        var stored = OrderDocument.Normalize(order.Order);
        var document = OrderDocument.ToJson(stored);
        var statements = _dialect.CreateStatements(order.IdempotencyKey is not null);
        var parameters = new DocumentParameters(collection => _dialect.AddCreate(collection, stored, document, order));
        if (_groupCommit is not null && statements.Count == 1)
        {
            var grouped = await GroupAsync("document.create", statements[0], stored.Id, parameters, static _ => true,
                cancellationToken);
            if (grouped.RanInGroup)
            {
                return grouped.HasRow
                    ? new CreateResult(CreateOutcome.Created, stored)
                    : await _connections.WriteAsync(null, (connection, transaction) =>
                        ReadExistingAsync(connection, transaction, order, cancellationToken), cancellationToken);
            }
        }

        return await _connections.WriteAsync(null, async (connection, transaction) =>
            (await WriteAsync(connection, transaction, "document.create", statements, parameters, cancellationToken))
                .Wrote
                ? new CreateResult(CreateOutcome.Created, stored)
                : await ReadExistingAsync(connection, transaction, order, cancellationToken), cancellationToken);
    }

    public async Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken)
    {
        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        var document = await SelectDocumentAsync(connection, null, id, _connections.ReadIsolationInForce,
            cancellationToken);
        return document is null ? null : OrderDocument.FromJson(document);
    }

    public async IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var distinct = OrderDocument.DistinctIds(ids);
        if (distinct.Length == 0)
        {
            yield break;
        }

        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        if (_jsonBatchFilter)
        {
            await using var command = Command(connection, null, _dialect.SelectManyByIdSet);
            _dialect.AddIdSet(command.Parameters, distinct);
            await foreach (var order in StreamAsync(command, "document.get_many", cancellationToken))
            {
                yield return order;
            }

            yield break;
        }

        foreach (var chunk in distinct.Chunk(InListChunkSize))
        {
            await using var command = Command(connection, null, DocumentQueries.SelectManyByList(chunk.Length));
            _dialect.AddIdList(command.Parameters, chunk);
            await foreach (var order in StreamAsync(command, "document.get_many", cancellationToken))
            {
                yield return order;
            }
        }
    }

    public async Task CheckReadyAsync(CancellationToken cancellationToken)
    {
        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        using var activity = StoreTelemetry.Command(_dialect.ProviderName, "document.ready", DocumentQueries.Ready,
            _connections.ReadIsolationInForce);
        await using var command = Command(connection, null, DocumentQueries.Ready);
        await command.ExecuteScalarAsync(cancellationToken);
    }

    /// <summary>The clean-up's batch: one delete in a write unit of its own.</summary>
    public Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit,
        CancellationToken cancellationToken) =>
        _connections.WriteAsync(null, async (connection, transaction) =>
        {
            using var activity = StoreTelemetry.Command(_dialect.ProviderName, "document.forget_keys",
                _dialect.DeleteExpiredKeys, _writeIsolationInForce);
            await using var command = Command(connection, transaction, _dialect.DeleteExpiredKeys);
            _dialect.AddTimestamp(command.Parameters, "before", storedBefore);
            _dialect.AddInteger(command.Parameters, "limit", limit);
            return await command.ExecuteNonQueryAsync(cancellationToken);
        }, cancellationToken);

    private async Task<(bool Wrote, object? First)> WriteAsync(
        DbConnection connection, DbTransaction? transaction, string operation, IReadOnlyList<string> statements,
            DocumentParameters parameters, CancellationToken cancellationToken)
    {
        object? first = null;
        for (var i = 0; i < statements.Count; i++)
        {
            using var activity = StoreTelemetry.Command(_dialect.ProviderName, i == 0 ? operation : operation + "_key",
                statements[i], _writeIsolationInForce);
            await using var command = Command(connection, transaction, statements[i]);
            parameters.AddTo(new ParameterTarget(command));
            var returned = await command.ExecuteScalarAsync(cancellationToken);
            if (returned is null or DBNull)
            {
                return (false, first);
            }

            first ??= returned;
        }

        return (true, first);
    }

    private async Task<GroupedResult<T>> GroupAsync<T>(string operation, string sql, Guid orderId,
        DocumentParameters parameters, Func<DbDataReader, T> readRow, CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(_dialect.ProviderName, operation, sql, _writeIsolationInForce);
        return await _groupCommit!.ExecuteAsync(new GroupedStatement(sql, orderId, parameters), readRow,
            cancellationToken);
    }

    private async Task<CreateResult> ReadExistingAsync(DbConnection connection, DbTransaction? transaction,
        NewOrder order, CancellationToken cancellationToken)
    {
        if (order.IdempotencyKey is null)
        {
            var document = await SelectDocumentAsync(connection, transaction, order.Order.Id, _writeIsolationInForce,
                cancellationToken)
                ?? throw new InvalidOperationException(
                    $"Order {order.Order.Id} conflicted on insert but cannot be read.");
            return OrderDocument.Existing(order, null, OrderDocument.FromJson(document));
        }

        using var activity = StoreTelemetry.Command(_dialect.ProviderName, "document.create_existing",
            _dialect.SelectCreateKey, _writeIsolationInForce);
        await using var select = Command(connection, transaction, _dialect.SelectCreateKey);
        _dialect.AddKeyLookup(select.Parameters, order.IdempotencyKey, order.Order.Id);
        await using var reader = await select.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken);
        return await reader.ReadAsync(cancellationToken)
            ? OrderDocument.Existing(order, reader.GetString(0), OrderDocument.FromJson(reader.GetString(1)))
            : throw new Keys.IdempotencyKeyForgottenException(order.IdempotencyKey);
    }

    private async Task<string?> SelectDocumentAsync(DbConnection connection, DbTransaction? transaction, Guid id,
        string isolation, CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(_dialect.ProviderName, "document.get", _dialect.SelectDocument,
            isolation);
        await using var select = Command(connection, transaction, _dialect.SelectDocument);
        _dialect.AddId(select.Parameters, "id", id);
        return await select.ExecuteScalarAsync(cancellationToken) as string;
    }

    private async IAsyncEnumerable<Order> StreamAsync(DbCommand command, string operation,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(_dialect.ProviderName, operation, command.CommandText,
            _connections.ReadIsolationInForce);
        await using var reader = await command.ExecuteReaderAsync(CommandBehavior.SequentialAccess, cancellationToken);
        while (await _connections.ReadAsync(command.Connection!, reader, ReadDocument, cancellationToken) is { } order)
        {
            yield return order;
        }
    }

    private static Order ReadDocument(DbDataReader row) => OrderDocument.FromJson(row.GetString(0));

    private static DbCommand Command(DbConnection connection, DbTransaction? transaction, string sql)
    {
        var command = connection.CreateCommand();
        command.CommandText = sql;
        command.Transaction = transaction;
        return command;
    }

    private sealed class DocumentParameters(Action<DbParameterCollection> bind) : IStatementParameters
    {
        public void AddTo(ParameterTarget target) => bind(target.Parameters);
    }
}
