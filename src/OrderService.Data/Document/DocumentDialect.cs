using System.Data.Common;
using OrderService.Data.Orders;

namespace OrderService.Data.Document;

/// <summary>What one engine says differently in the document layout.</summary>
public abstract class DocumentDialect
{
    protected const string InsertOrder = """
        INSERT INTO order_documents (id, customer_id, status, version, created_at, document)
        VALUES (@id, @customer_id, @status, @version, @created_at, @document)
        ON CONFLICT (id) DO NOTHING
        RETURNING id
        """;

    public abstract string ProviderName { get; }

    /// <summary>The create's statements, run in order in one write unit.</summary>
    public abstract IReadOnlyList<string> CreateStatements(bool withKey);

    /// <summary>The transition's statements, run like <see cref="CreateStatements"/>.</summary>
    public abstract IReadOnlyList<string> TransitionStatements(TransitionCommand command);

    public string SelectDocument => "SELECT document FROM order_documents WHERE id = @id";

    /// <summary>
    /// A create's stored key: request_hash, the document of its order. The key look-ups are statements of their own
    /// after a write that did nothing: a fresh snapshot sees a concurrent retry's key.
    /// </summary>
    public virtual string SelectCreateKey => """
        SELECT k.request_hash, d.document
        FROM order_document_keys k JOIN order_documents d ON d.id = k.order_id
        WHERE k.key = @key
        """;

    /// <summary>A transition's stored key: request_hash, order_id, version, the document of its order.</summary>
    public virtual string SelectTransitionKey => """
        SELECT k.request_hash, k.order_id, k.version, d.document
        FROM order_document_keys k LEFT JOIN order_documents d ON d.id = k.order_id
        WHERE k.key = @key
        """;

    /// <summary>The documents of the ids bound by <see cref="AddIdSet"/>, in one parameter.</summary>
    public abstract string SelectManyByIdSet { get; }

    /// <summary>The oldest keys up to <c>@limit</c>, through the index on created_at.</summary>
    public virtual string DeleteExpiredKeys => """
        DELETE FROM order_document_keys WHERE key IN (
            SELECT key FROM order_document_keys WHERE created_at < @before ORDER BY created_at LIMIT @limit)
        """;

    /// <summary>The id a keyed create's order gets from its key, or null when the request's id stands.</summary>
    public virtual Guid? CreatedOrderId(string key) => null;

    /// <summary>True when <paramref name="exception"/> says the transition's key was already stored.</summary>
    public virtual bool IsKeyTaken(DbException exception) => false;

    public void AddCreate(DbParameterCollection parameters, Order stored, string document, NewOrder order)
    {
        AddId(parameters, "id", stored.Id);
        AddText(parameters, "customer_id", stored.CustomerId);
        AddText(parameters, "status", stored.Status.ToString());
        AddInteger(parameters, "version", stored.Version);
        AddTimestamp(parameters, "created_at", stored.CreatedAt);
        AddDocument(parameters, "document", document);
        if (order.IdempotencyKey is { } key)
        {
            AddText(parameters, "key", key);
            AddText(parameters, "request_hash", order.RequestHash);
        }
    }

    public void AddTransition(DbParameterCollection parameters, TransitionCommand command)
    {
        AddId(parameters, "id", command.OrderId);
        AddText(parameters, "status", Transitions.Target(command.Action).ToString());
        AddText(parameters, "type", Transitions.EventType(command.Action));
        AddText(parameters, "at", Timestamps.ToText(command.At));
        AddDocument(parameters, "data", Relational.OrderJson.EventData(command.Data));
        AddExpectedVersion(parameters, command);
        if (command.IdempotencyKey is { } key)
        {
            AddText(parameters, "key", key);
            AddText(parameters, "request_hash", command.RequestHash);
            AddTimestamp(parameters, "key_at", command.At);
        }
    }

    /// <summary><c>@expected</c>, NULL when the step names no version, and what else the engine's step binds.</summary>
    protected abstract void AddExpectedVersion(DbParameterCollection parameters, TransitionCommand command);

    public abstract void AddId(DbParameterCollection parameters, string name, Guid id);

    public abstract void AddText(DbParameterCollection parameters, string name, string value);

    protected virtual void AddDocument(DbParameterCollection parameters, string name, string json) =>
        AddText(parameters, name, json);

    public abstract void AddInteger(DbParameterCollection parameters, string name, int value);

    /// <summary>A timestamp as the created_at columns store it.</summary>
    public abstract void AddTimestamp(DbParameterCollection parameters, string name, DateTimeOffset at);

    public abstract void AddIdSet(DbParameterCollection parameters, Guid[] ids);

    public abstract void AddIdList(DbParameterCollection parameters, Guid[] ids);

    /// <summary>A key look-up's parameters: <c>key</c>, and whatever else the engine finds it by.</summary>
    public virtual void AddKeyLookup(DbParameterCollection parameters, string key, Guid orderId) =>
        AddText(parameters, "key", key);
}
