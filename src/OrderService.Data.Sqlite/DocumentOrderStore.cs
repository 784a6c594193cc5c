using System.Diagnostics;
using System.Runtime.CompilerServices;
using Microsoft.Data.Sqlite;
using OrderService.Data.Document;
using OrderService.Data.Orders;
using OrderService.Data.Payments;

namespace OrderService.Data.Sqlite;

/// <summary>
/// The document layout on SQLite: one TEXT JSON document per order, events embedded, edited in place by
/// json_set. Writes go through <see cref="SqliteDatabase.WriteAsync{T}"/> (the group-commit writer by
/// default, acknowledged after COMMIT, durable as PRAGMA synchronous says); reads use pooled readers.
/// </summary>
public sealed partial class DocumentOrderStore(SqliteDatabase database, StoreOptions options, IPaymentAuthorizer payments) : IOrderStore
{
    private const string Provider = SqliteDatabase.ProviderName;

    // SQLite has one writer at a time: every write transaction is serializable.
    private const string WriteIsolationName = "Serializable";

    // Far below SQLITE_MAX_VARIABLE_NUMBER (32,766) and short enough to prepare quickly.
    private const int InListChunkSize = 1_000;

    private readonly string _readIsolation = options.ReadIsolation.ToString();

    public async Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken)
    {
        var stored = OrderDocument.Normalize(order.Order);
        var document = OrderDocument.ToJson(stored);
        var existing = await database.WriteAsync(connection => Insert(connection, order, stored, document), cancellationToken).ConfigureAwait(false);
        return existing is null
            ? new CreateResult(CreateOutcome.Created, stored)
            : OrderDocument.Existing(order, existing.Value.RequestHash, existing.Value.Document);
    }

    public Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        using var connection = database.OpenReader();
        var document = SelectDocument(connection, id.ToString(), _readIsolation);
        return Task.FromResult(document is null ? null : OrderDocument.FromJson(document));
    }

    public async Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        TransitionRow row;
        try
        {
            row = payments.PendingFor(command) is { } payment
                ? await database.WriteAwaitingAsync(connection => UpdateAwaitingPaymentAsync(connection, command, payment, cancellationToken), cancellationToken).ConfigureAwait(false)
                : await database.WriteAsync(connection => Update(connection, command), cancellationToken).ConfigureAwait(false);
        }
        catch (TransitionDeclinedException)
        {
            return TransitionResult.Declined;
        }

        if (row.Document is not null)
        {
            return TransitionResult.Applied(OrderDocument.FromJson(row.Document));
        }

        if (row.Key is { } key)
        {
            return OrderDocument.KnownKey(command, key.RequestHash, key.OrderId, key.Version, key.Document);
        }

        return row.Status is { } status
            ? TransitionResult.Rejected(status, row.Version, command.Action, command.ExpectedVersion)
            : TransitionResult.NotFound;
    }

    public async IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var distinct = OrderDocument.DistinctIds(ids);
        if (distinct.Length == 0)
        {
            yield break;
        }

        using var connection = database.OpenReader();
        if (options.BatchFilter == BatchFilter.Json)
        {
            using var command = connection.CreateCommand();
            command.CommandText = DocumentSql.SelectManyByJson;
            command.Parameters.AddWithValue("@ids", OrderDocument.IdsJson(distinct));
            await foreach (var order in StreamAsync(command, "document.get_many", cancellationToken).ConfigureAwait(false))
            {
                yield return order;
            }

            yield break;
        }

        foreach (var chunk in distinct.Chunk(InListChunkSize))
        {
            using var command = connection.CreateCommand();
            command.CommandText = DocumentQueries.SelectManyByList(chunk.Length, DocumentQueries.Named);
            for (var i = 0; i < chunk.Length; i++)
            {
                command.Parameters.AddWithValue($"@p{i}", chunk[i].ToString());
            }

            await foreach (var order in StreamAsync(command, "document.get_many", cancellationToken).ConfigureAwait(false))
            {
                yield return order;
            }
        }
    }

    public Task CheckReadyAsync(CancellationToken cancellationToken)
    {
        using var connection = database.OpenReader();
        using var activity = StoreTelemetry.Command(Provider, "document.ready", DocumentQueries.Ready, _readIsolation);
        using var command = connection.CreateCommand();
        command.CommandText = DocumentQueries.Ready;
        command.ExecuteScalar();
        return Task.CompletedTask;
    }

    /// <summary>Runs on the writer: inserts key and order, or returns what an earlier create stored.</summary>
    private static (string? RequestHash, string Document)? Insert(SqliteConnection connection, NewOrder request, Order stored, string document)
    {
        var id = stored.Id.ToString();
        var createdAt = Timestamps.ToText(stored.CreatedAt);
        if (request.IdempotencyKey is { } key)
        {
            using var insertKeyTrace = Trace("document.create_key", DocumentSql.InsertKey);
            using var insertKey = WriteCommand(connection, DocumentSql.InsertKey);
            insertKey.Parameters.AddWithValue("@key", key);
            insertKey.Parameters.AddWithValue("@request_hash", request.RequestHash);
            insertKey.Parameters.AddWithValue("@id", id);
            insertKey.Parameters.AddWithValue("@created_at", createdAt);
            if (insertKey.ExecuteNonQuery() == 0)
            {
                return SelectByKey(connection, key);
            }
        }

        using var insertTrace = Trace("document.create", DocumentSql.InsertOrder);
        using var insert = WriteCommand(connection, DocumentSql.InsertOrder);
        insert.Parameters.AddWithValue("@id", id);
        insert.Parameters.AddWithValue("@customer_id", stored.CustomerId);
        insert.Parameters.AddWithValue("@status", stored.Status.ToString());
        insert.Parameters.AddWithValue("@version", stored.Version);
        insert.Parameters.AddWithValue("@created_at", createdAt);
        insert.Parameters.AddWithValue("@document", document);
        if (insert.ExecuteNonQuery() == 1)
        {
            return null;
        }

        // A retried insert whose first attempt committed: answer with what was stored then.
        var existing = SelectDocument(connection, id, WriteIsolationName)
            ?? throw new InvalidOperationException($"Order {id} conflicted on insert but cannot be read.");
        return (null, existing);
    }

    private static (string? RequestHash, string Document) SelectByKey(SqliteConnection connection, string key)
    {
        using var selectTrace = Trace("document.create_existing", DocumentSql.SelectByKey);
        using var select = WriteCommand(connection, DocumentSql.SelectByKey);
        select.Parameters.AddWithValue("@key", key);
        using var reader = select.ExecuteReader();
        return reader.Read()
            ? (reader.GetString(0), reader.GetString(1))
            : throw new InvalidOperationException($"Idempotency key '{key}' conflicted on insert but cannot be read.");
    }

    /// <summary>
    /// Runs on the writer: the one conditional UPDATE; when it matched nothing, the status and version
    /// (read in the same transaction, so exact). With an Idempotency-Key the UPDATE is guarded by the key's absence and the key is inserted right after
    /// it, in the same savepoint; an update that matched nothing reads the key first (the writer sees every
    /// key stored before, and answers only after the group's commit).
    /// </summary>
    private static TransitionRow Update(SqliteConnection connection, TransitionCommand command)
    {
        var id = command.OrderId.ToString();
        var keyed = command.IdempotencyKey is not null;
        var sql = keyed ? DocumentSql.TransitionWithKey[command.Action] : DocumentSql.Transition[command.Action];
        using (Trace("document.transition", sql))
        using (var update = WriteCommand(connection, sql))
        {
            update.Parameters.AddWithValue("@id", id);
            update.Parameters.AddWithValue("@status", Transitions.Target(command.Action).ToString());
            update.Parameters.AddWithValue("@type", Transitions.EventType(command.Action));
            update.Parameters.AddWithValue("@at", Timestamps.ToText(command.At));
            update.Parameters.AddWithValue("@data", OrderDocument.EventDataJson(command.Data));
            update.Parameters.AddWithValue("@expected", command.ExpectedVersion is { } expected ? expected : DBNull.Value);
            string? document = null;
            if (keyed)
            {
                update.Parameters.AddWithValue("@key", command.IdempotencyKey);
                var version = 0;
                using (var returned = update.ExecuteReader())
                {
                    if (returned.Read())
                    {
                        (document, version) = (returned.GetString(0), returned.GetInt32(1));
                    }
                }

                if (document is not null)
                {
                    InsertKey(connection, command, id, version);
                }
            }
            else
            {
                document = update.ExecuteScalar() as string;
            }

            if (document is not null)
            {
                return new TransitionRow(document, null, 0, null);
            }
        }

        if (keyed && SelectTransitionKey(connection, command.IdempotencyKey!) is { } stored)
        {
            return new TransitionRow(null, null, 0, stored);
        }

        using var selectTrace = Trace("document.transition_state", DocumentQueries.SelectState);
        using var select = WriteCommand(connection, DocumentQueries.SelectState);
        select.Parameters.AddWithValue("@id", id);
        using var reader = select.ExecuteReader();
        return reader.Read()
            ? new TransitionRow(null, Enum.Parse<OrderStatus>(reader.GetString(0)), reader.GetInt32(1), null)
            : new TransitionRow(null, null, 0, null);
    }

    /// <summary>The update in a write transaction of its own, held uncommitted while the gateway decides; a "no" throws, which rolls it back (its key with it).</summary>
    private static async Task<TransitionRow> UpdateAwaitingPaymentAsync(
        SqliteConnection connection, TransitionCommand command, PendingAuthorization payment, CancellationToken cancellationToken)
    {
        var row = Update(connection, command);
        return row.Document is null || await payment(cancellationToken).ConfigureAwait(false) ? row : throw new TransitionDeclinedException();
    }

    private static void InsertKey(SqliteConnection connection, TransitionCommand command, string id, int version)
    {
        using var trace = Trace("document.transition_key_insert", DocumentSql.InsertTransitionKey);
        using var insert = WriteCommand(connection, DocumentSql.InsertTransitionKey);
        insert.Parameters.AddWithValue("@key", command.IdempotencyKey);
        insert.Parameters.AddWithValue("@request_hash", command.RequestHash);
        insert.Parameters.AddWithValue("@id", id);
        insert.Parameters.AddWithValue("@version", version);
        insert.Parameters.AddWithValue("@created_at", Timestamps.ToText(command.At));
        insert.ExecuteNonQuery();
    }

    private static StoredKey? SelectTransitionKey(SqliteConnection connection, string key)
    {
        using var trace = Trace("document.transition_key", DocumentSql.SelectTransitionKey);
        using var select = WriteCommand(connection, DocumentSql.SelectTransitionKey);
        select.Parameters.AddWithValue("@key", key);
        using var reader = select.ExecuteReader();
        return reader.Read()
            ? new StoredKey(reader.GetString(0), Guid.Parse(reader.GetString(1)), reader.GetInt32(2), reader.IsDBNull(3) ? null : reader.GetString(3))
            : null;
    }

    private static SqliteCommand WriteCommand(SqliteConnection connection, string sql)
    {
        var command = connection.CreateCommand();
        command.CommandText = sql;
        return command;
    }

    private static Activity? Trace(string operation, string sql) => StoreTelemetry.Command(Provider, operation, sql, WriteIsolationName);

    private static string? SelectDocument(SqliteConnection connection, string id, string isolation)
    {
        using var activity = StoreTelemetry.Command(Provider, "document.get", DocumentSql.SelectDocument, isolation);
        using var select = connection.CreateCommand();
        select.CommandText = DocumentSql.SelectDocument;
        select.Parameters.AddWithValue("@id", id);
        return select.ExecuteScalar() as string;
    }

    /// <summary>Yields each order as its row is read: a large batch is never buffered whole.</summary>
    private async IAsyncEnumerable<Order> StreamAsync(SqliteCommand command, string operation, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(Provider, operation, command.CommandText, _readIsolation);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            yield return OrderDocument.FromJson(reader.GetString(0));
        }
    }

    private readonly record struct TransitionRow(string? Document, OrderStatus? Status, int Version, StoredKey? Key);

    /// <summary>A transition key found stored, with its order's document as the writer sees it now.</summary>
    private sealed record StoredKey(string RequestHash, Guid OrderId, int Version, string? Document);

    /// <summary>The payment gateway said no: thrown inside the write so that it rolls back.</summary>
    private sealed class TransitionDeclinedException() : Exception("The transition was declined before commit.");
}
