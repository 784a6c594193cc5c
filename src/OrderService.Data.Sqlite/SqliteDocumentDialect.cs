using System.Collections.Frozen;
using System.Data.Common;
using Microsoft.Data.Sqlite;
using OrderService.Data.Document;
using OrderService.Data.Orders;

namespace OrderService.Data.Sqlite;

/// <summary>The document layout's SQL for SQLite (TEXT JSON, edited in place with json_set).</summary>
public sealed class SqliteDocumentDialect : DocumentDialect
{
    private const string InsertKey = """
        INSERT INTO order_document_keys (key, request_hash, order_id, created_at)
        VALUES (@key, @request_hash, @id, @created_at)
        ON CONFLICT (key) DO NOTHING
        RETURNING key
        """;

    private const string InsertTransitionKey = """
        INSERT INTO order_document_keys (key, request_hash, order_id, version, created_at)
        SELECT @key, @request_hash, id, version, @key_at FROM order_documents WHERE id = @id
        RETURNING key
        """;

    private static readonly string[] Create = [InsertOrder];

    private static readonly string[] CreateWithKey = [InsertKey, InsertOrder];

    private static readonly FrozenDictionary<OrderAction, string[]> Transition =
        Enum.GetValues<OrderAction>().ToFrozenDictionary(action => action, action => new[] { TransitionFor(action) });

    private static readonly FrozenDictionary<OrderAction, string[]> TransitionWithKey =
        Enum.GetValues<OrderAction>().ToFrozenDictionary(action => action, action => new[]
        {
            TransitionFor(action).Replace("RETURNING document",
                "AND NOT EXISTS (SELECT 1 FROM order_document_keys k WHERE k.key = @key)\nRETURNING document",
                StringComparison.Ordinal),
            InsertTransitionKey,
        });

    public override string ProviderName => SqliteDatabase.ProviderName;

    public override IReadOnlyList<string> CreateStatements(bool withKey) => withKey ? CreateWithKey : Create;

    public override IReadOnlyList<string> TransitionStatements(TransitionCommand command) =>
        (command.IdempotencyKey is null ? Transition : TransitionWithKey)[command.Action];

    public override string SelectManyByIdSet =>
        "SELECT document FROM order_documents WHERE id IN (SELECT value FROM json_each(@ids))";

    protected override void AddExpectedVersion(DbParameterCollection parameters, TransitionCommand command) =>
        parameters.Add(new SqliteParameter("@expected", command.ExpectedVersion is { } v ? v : DBNull.Value));

    public override void AddId(DbParameterCollection parameters, string name, Guid id) =>
        parameters.Add(new SqliteParameter("@" + name, id.ToString()));

    public override void AddText(DbParameterCollection parameters, string name, string value) =>
        parameters.Add(new SqliteParameter("@" + name, value));

    public override void AddInteger(DbParameterCollection parameters, string name, int value) =>
        parameters.Add(new SqliteParameter("@" + name, value));

    public override void AddTimestamp(DbParameterCollection parameters, string name, DateTimeOffset at) =>
        parameters.Add(new SqliteParameter("@" + name, Timestamps.ToText(at)));

    public override void AddIdSet(DbParameterCollection parameters, Guid[] ids) =>
        AddText(parameters, "ids", OrderDocument.IdsJson(ids));

    public override void AddIdList(DbParameterCollection parameters, Guid[] ids)
    {
        for (var i = 0; i < ids.Length; i++)
        {
            parameters.Add(new SqliteParameter(DocumentQueries.Positional(i), ids[i].ToString()));
        }
    }

    private static string TransitionFor(OrderAction action)
    {
        var allowed = string.Join(", ", Transitions.AllowedFrom(action).Select(status => $"'{status}'"));
        return $"""
            UPDATE order_documents
            SET status = @status,
                version = version + 1,
                document = json_set(document,
                    '$.status', @status,
                    '$.version', version + 1,
                    '$.updatedAt', @at,
                    '$.events[#]', json_object(
                        'sequence', version + 1,
                        'type', @type,
                        'at', @at,
                        'data', json(@data)))
            WHERE id = @id AND status IN ({allowed}) AND (@expected IS NULL OR version = @expected)
            RETURNING document
            """;
    }
}
