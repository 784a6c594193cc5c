using Npgsql;
using NpgsqlTypes;

namespace OrderService.Data.PostgreSql;

/// <summary>Which statement each write sends, on plain PostgreSQL and on Citus (Store:PostgreSql:Distribution=Citus).</summary>
public sealed partial class DocumentOrderStore
{
    // Store:PostgreSql:Distribution=Citus: the statements of CitusDocumentSql, and a keyed create's id from its key.
    private readonly bool _citus = database.Distribution == PostgreSqlDistribution.Citus;

    private string TransitionSql(TransitionCommand command) =>
        (command.IdempotencyKey is null, _citus) switch
        {
            (true, false) => DocumentSql.Transition,
            (true, true) => Citus.CitusDocumentSql.Transition,
            (false, false) => DocumentSql.TransitionWithKey,
            (false, true) => Citus.CitusDocumentSql.TransitionWithKey,
        };

    // Citus relays a worker's error without the table's name: there the shard's constraint is named in the message.
    private bool IsKeyTaken(PostgresException exception) =>
        exception.SqlState == PostgresErrorCodes.UniqueViolation
        && (exception.TableName == "order_document_keys" || (_citus && exception.MessageText.Contains("\"order_document_keys_pkey_", StringComparison.Ordinal)));

    /// <summary>On Citus a key is unique per order: its lookup names the order (<c>@id</c>).</summary>
    private void AddOrderIdOnCitus(NpgsqlCommand command, Guid orderId)
    {
        if (_citus)
        {
            command.Parameters.Add(new NpgsqlParameter<Guid>("id", NpgsqlDbType.Uuid) { TypedValue = orderId });
        }
    }
}
