using System.Data;
using System.Data.Common;
using System.Globalization;
using System.Runtime.CompilerServices;
using Dapper;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

public sealed partial class RelationalOrderStore : IOrderStore
{
    private const string Ping = "SELECT 1";

    private readonly SqlDialect _dialect;
    private readonly IRelationalConnections _connections;
    private readonly bool _perCall;
    private readonly bool _jsonBatchFilter;
    private readonly int _commandTimeout;

    // ReadCommitted writes are single atomic commands; a stricter level needs an explicit transaction to mean anything.
    private readonly IsolationLevel? _writeTransaction;
    private readonly string _writeIsolationInForce;

    // Under a strict level, where writes run concurrently, a transition reads before its transaction, which holds only
    // the version-guarded write, so transitions of different orders do not abort each other.
    private readonly bool _strictTransitionsReadFirst;
    private readonly string _createIsolationInForce;

    // Group commit carries the default flow's one-statement writes.
    private readonly IGroupCommit? _groupCommit;

    public RelationalOrderStore(SqlDialect dialect, IRelationalConnections connections, StoreOptions options)
    {
        _dialect = dialect;
        _connections = connections;
        _perCall = options.UnitOfWork == UnitOfWork.PerCall;
        _jsonBatchFilter = options.BatchFilter == BatchFilter.Json;
        _commandTimeout = options.CommandTimeoutSeconds;
        _writeTransaction = options.WriteIsolation switch
        {
            WriteIsolation.ReadCommitted => null,
            WriteIsolation.RepeatableRead => IsolationLevel.RepeatableRead,
            WriteIsolation.Serializable => IsolationLevel.Serializable,
            _ => throw new ArgumentOutOfRangeException(nameof(options), options.WriteIsolation,
                "Unknown Store:WriteIsolation."),
        };
        _writeIsolationInForce = connections.WriteIsolationInForce(_writeTransaction ?? IsolationLevel.ReadCommitted);
        _strictTransitionsReadFirst = _writeTransaction is not null && !connections.SerializesWrites;
        _createIsolationInForce = connections.WriteIsolationInForce(IsolationLevel.ReadCommitted);
        _groupCommit = !_perCall && _writeTransaction is null ? connections.GroupCommit : null;
    }

    public Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken)
    {
        if (order.IdempotencyKey is { } key && _dialect.CreatedOrderId(key) is { } keyedId)
        {
            order = order with { Order = order.Order with { Id = keyedId } };
        }

        var sql = _dialect.CreateOrder(order.IdempotencyKey is not null);
        var created = order.Order;
        var parameters = new StatementArguments()
            .Value("Id", _dialect.Id(created.Id))
            .Text("CustomerId", created.CustomerId)
            .Value("Total", created.Total, DbType.Decimal)
            .Value("At", _dialect.Timestamp(created.CreatedAt))
            .Text("Lines", OrderJson.LinesParameter(created.Lines))
            .Text("Data", OrderJson.EventData(created.Events[0].Data))
            .Key(order.IdempotencyKey, order.RequestHash);

        return _groupCommit is null
            ? CreateAloneAsync(order, sql, parameters, cancellationToken)
            : CreateInGroupAsync(_groupCommit, order, sql, parameters, cancellationToken);
    }

    private async Task<CreateResult> CreateInGroupAsync(IGroupCommit group, NewOrder order, string sql,
        StatementArguments parameters, CancellationToken cancellationToken)
    {
        GroupedResult<bool> grouped;
        using (StoreTelemetry.Command(_dialect.ProviderName, "create", sql, _createIsolationInForce))
        {
            grouped = await group.ExecuteAsync(new GroupedStatement(sql, order.Order.Id, parameters), static _ => true,
                cancellationToken);
        }

        if (!grouped.RanInGroup)
        {
            return await CreateAloneAsync(order, sql, parameters, cancellationToken);
        }

        return grouped.HasRow
            ? new CreateResult(CreateOutcome.Created, order.Order)
            : await _connections.WriteAsync(null, (connection, transaction) =>
                AnswerNotInsertedAsync(connection, transaction, order, cancellationToken), cancellationToken);
    }

    private Task<CreateResult> CreateAloneAsync(NewOrder order, string sql, StatementArguments parameters,
        CancellationToken cancellationToken)
    {
        var created = order.Order;

        // Every decision of a create is a unique or foreign key, which holds alike at every isolation level, so it runs
        // as its own implicit transaction.
        return _connections.WriteAsync(null, async (connection, transaction) =>
        {
            bool inserted;
            using (StoreTelemetry.Command(_dialect.ProviderName, "create", sql, _createIsolationInForce))
            {
                await using var reader = await ExecuteReaderAsync(connection, transaction, sql, parameters,
                    cancellationToken);
                inserted = await reader.ReadAsync(cancellationToken);

                // Run the create's statements to the end here: Microsoft.Data.Sqlite swallows a failure of a
                // statement after the last result read when the reader is disposed.
                while (await reader.NextResultAsync(cancellationToken))
                {
                }
            }

            return inserted
                ? new CreateResult(CreateOutcome.Created, created)
                : await AnswerNotInsertedAsync(connection, transaction, order, cancellationToken);
        }, cancellationToken);
    }

    private async Task<CreateResult> AnswerNotInsertedAsync(
        DbConnection connection, DbTransaction? transaction, NewOrder order, CancellationToken cancellationToken)
    {
        var knownOrderId = order.Order.Id;
        if (order.IdempotencyKey is { } key)
        {
            var stored = await ReadStoredKeyAsync(connection, transaction, key, order.Order.Id, "create.key",
                _createIsolationInForce, cancellationToken) ?? throw new Keys.IdempotencyKeyForgottenException(key);
            if (stored.Hash != order.RequestHash)
            {
                return new CreateResult(CreateOutcome.KeyReusedWithDifferentRequest, null);
            }

            knownOrderId = stored.OrderId;
        }

        var first = await ReadOrderAsync(connection, transaction, "create.replay", knownOrderId,
            _createIsolationInForce, cancellationToken)
            ?? throw new InvalidOperationException(
                $"Order {knownOrderId} is referenced by an idempotency key but does not exist.");
        return new CreateResult(CreateOutcome.Replayed, OrderHistory.AsOf(first, 1));
    }

    private Task<(string Hash, Guid OrderId, int Version)?> ReadStoredKeyAsync(
        DbConnection connection, DbTransaction? transaction, string key, Guid orderId, string operation,
            string isolation, CancellationToken cancellationToken) =>
        ReadFirstAsync(connection, transaction, operation, _dialect.SelectIdempotencyKey,
            new StatementArguments().Text("Key", key).Value("Id", _dialect.Id(orderId)), isolation,
            static row => ((string, Guid, int)?)(row.GetString(0), row.GetGuid(1), row.GetInt32(2)),
            cancellationToken);

    public async Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken)
    {
        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        return await ReadOrderAsync(connection, null, "get", id, _connections.ReadIsolationInForce, cancellationToken);
    }

    public async IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        // A repeated id is returned once; sorting by the canonical text keeps chunks in the order the engines sort
        // uuid/text ids, so Json and InList stream the same sequence.
        var distinct = OrderIds.DistinctInTextOrder(ids);
        if (distinct.Length == 0)
        {
            yield break;
        }

        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        if (_jsonBatchFilter)
        {
            var parameters = _dialect.IdSetParameters(distinct);
            await foreach (var order in QueryOrdersAsync(connection, "get_many.json", _dialect.SelectOrdersByIdSet,
                parameters, cancellationToken))
            {
                yield return order;
            }

            yield break;
        }

        var chunkSize = Math.Max(1, _dialect.MaxParametersPerCommand - 1);
        for (var start = 0; start < distinct.Length; start += chunkSize)
        {
            var count = Math.Min(chunkSize, distinct.Length - start);
            var parameters = new StatementArguments();
            for (var i = 0; i < count; i++)
            {
                parameters.Value("Id" + i.ToString(CultureInfo.InvariantCulture), _dialect.Id(distinct[start + i]));
            }

            await foreach (var order in QueryOrdersAsync(connection, "get_many.in_list",
                _dialect.SelectOrdersByIdList(count), parameters, cancellationToken))
            {
                yield return order;
            }
        }
    }

    public async Task CheckReadyAsync(CancellationToken cancellationToken)
    {
        await using var connection = await _connections.OpenReaderAsync(cancellationToken);
        using (StoreTelemetry.Command(_dialect.ProviderName, "ping", Ping, _connections.ReadIsolationInForce))
        {
            // A plain command: Dapper's one-time set-up would compete with the first requests for the CPU.
            await using var ping = connection.CreateCommand();
            ping.CommandText = Ping;
            ping.CommandTimeout = _commandTimeout;
            await ping.ExecuteScalarAsync(cancellationToken);
        }
    }

    private async IAsyncEnumerable<Order> QueryOrdersAsync(DbConnection connection, string operation, string sql,
        IStatementParameters parameters, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(_dialect.ProviderName, operation, sql,
            _connections.ReadIsolationInForce);
        await using var reader = await ExecuteReaderAsync(connection, null, sql, parameters, cancellationToken);
        while (await _connections.ReadAsync(connection, reader, OrderRowReader.Read, cancellationToken) is { } order)
        {
            yield return order;
        }
    }

    private Task<Order?> ReadOrderAsync(DbConnection connection, DbTransaction? transaction, string operation,
        Guid id, string isolation, CancellationToken cancellationToken) =>
        ReadFirstAsync(connection, transaction, operation, _dialect.SelectOrderById,
            new StatementArguments().Value("Id", _dialect.Id(id)), isolation, OrderRowReader.Read, cancellationToken);

    private async Task<T?> ReadFirstAsync<T>(DbConnection connection, DbTransaction? transaction, string operation,
        string sql, IStatementParameters parameters, string isolation, Func<DbDataReader, T> row,
        CancellationToken cancellationToken)
    {
        using (StoreTelemetry.Command(_dialect.ProviderName, operation, sql, isolation))
        {
            await using var reader = await ExecuteReaderAsync(connection, transaction, sql, parameters,
                cancellationToken);
            return await _connections.ReadAsync(connection, reader, row, cancellationToken);
        }
    }

    private Task<DbDataReader> ExecuteReaderAsync(DbConnection connection, DbTransaction? transaction, string sql,
        IStatementParameters parameters, CancellationToken cancellationToken) =>
        _connections.ExecuteReaderAsync(connection,
            new CommandDefinition(sql, parameters, transaction, _commandTimeout, CommandType.Text, CommandFlags.None,
            cancellationToken));
}
