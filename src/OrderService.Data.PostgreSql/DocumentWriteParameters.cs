using System.Data.Common;
using Npgsql;
using NpgsqlTypes;
using OrderService.Data.Document;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// The parameters of <see cref="DocumentSql.InsertOrder"/> / <see cref="DocumentSql.InsertOrderWithKey"/>, bound the same way to
/// a command of its own or to a group commit's batch command.
/// </summary>
internal sealed class DocumentCreateParameters(Order stored, string json, NewOrder order) : IStatementParameters
{
    public void AddTo(DbBatchCommand command) => AddTo(((NpgsqlBatchCommand)command).Parameters);

    public void AddTo(NpgsqlParameterCollection parameters)
    {
        parameters.Add(new NpgsqlParameter<Guid>("id", NpgsqlDbType.Uuid) { TypedValue = stored.Id });
        parameters.Add(new NpgsqlParameter<string>("customer_id", NpgsqlDbType.Varchar) { TypedValue = stored.CustomerId });
        parameters.Add(new NpgsqlParameter<string>("status", NpgsqlDbType.Varchar) { TypedValue = stored.Status.ToString() });
        parameters.Add(new NpgsqlParameter<int>("version", NpgsqlDbType.Integer) { TypedValue = stored.Version });
        parameters.Add(new NpgsqlParameter<DateTimeOffset>("created_at", NpgsqlDbType.TimestampTz) { TypedValue = stored.CreatedAt });
        parameters.Add(new NpgsqlParameter<string>("document", NpgsqlDbType.Jsonb) { TypedValue = json });
        if (order.IdempotencyKey is not null)
        {
            parameters.Add(new NpgsqlParameter<string>("key", NpgsqlDbType.Varchar) { TypedValue = order.IdempotencyKey });
            parameters.Add(new NpgsqlParameter<string>("request_hash", NpgsqlDbType.Varchar) { TypedValue = order.RequestHash });
        }
    }
}

/// <summary>The parameters of <see cref="DocumentSql.Transition"/> / <see cref="DocumentSql.TransitionWithKey"/>, bound either way.</summary>
internal sealed class DocumentTransitionParameters(TransitionCommand command) : IStatementParameters
{
    public void AddTo(DbBatchCommand batchCommand) => AddTo(((NpgsqlBatchCommand)batchCommand).Parameters);

    public void AddTo(NpgsqlParameterCollection parameters)
    {
        var allowed = Transitions.AllowedFrom(command.Action).Select(status => status.ToString()).ToArray();
        parameters.Add(new NpgsqlParameter<Guid>("id", NpgsqlDbType.Uuid) { TypedValue = command.OrderId });
        parameters.Add(new NpgsqlParameter<string>("status", NpgsqlDbType.Varchar) { TypedValue = Transitions.Target(command.Action).ToString() });
        parameters.Add(new NpgsqlParameter<string>("type", NpgsqlDbType.Text) { TypedValue = Transitions.EventType(command.Action) });
        parameters.Add(new NpgsqlParameter<string>("at", NpgsqlDbType.Text) { TypedValue = Timestamps.ToText(command.At) });
        parameters.Add(new NpgsqlParameter<string>("data", NpgsqlDbType.Jsonb) { TypedValue = OrderDocument.EventDataJson(command.Data) });
        parameters.Add(new NpgsqlParameter<string[]>("allowed", NpgsqlDbType.Array | NpgsqlDbType.Varchar) { TypedValue = allowed });
        parameters.Add(new NpgsqlParameter("expected", NpgsqlDbType.Integer) { Value = command.ExpectedVersion is { } v ? v : DBNull.Value });
        if (command.IdempotencyKey is not null)
        {
            parameters.Add(new NpgsqlParameter<string>("key", NpgsqlDbType.Varchar) { TypedValue = command.IdempotencyKey });
            parameters.Add(new NpgsqlParameter<string>("request_hash", NpgsqlDbType.Varchar) { TypedValue = command.RequestHash });
            parameters.Add(new NpgsqlParameter<DateTimeOffset>("key_at", NpgsqlDbType.TimestampTz) { TypedValue = command.At });
        }
    }
}
