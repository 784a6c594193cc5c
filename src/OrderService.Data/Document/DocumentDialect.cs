using System.Data.Common;
using OrderService.Data.Orders;

namespace OrderService.Data.Document;

/// <summary>
/// What one engine says differently in the document layout: the SQL text, how values are bound, and how ids and
/// timestamps come back. <see cref="DocumentOrderStore"/> runs the one protocol over it; how a write reaches the
/// engine (SQLite's group-commit writer, PostgreSQL's <see cref="Relational.IGroupCommit"/>) is the engine's
/// <see cref="Relational.IRelationalConnections"/>. Parameters are bound by name without a prefix (both drivers accept it).
/// </summary>
public abstract class DocumentDialect
{
    /// <summary>The db.system name in telemetry.</summary>
    public abstract string ProviderName { get; }

    /// <summary>The ids of one InList batch command; far below every engine's parameter limit.</summary>
    public virtual int InListChunkSize => 1_000;

    /// <summary>
    /// The create's statements, run in order in one write unit: each returns a row when it wrote, and the create
    /// happened only when every one did. With a key, the key is stored in the same unit, so a concurrent create with
    /// the same key writes nothing.
    /// </summary>
    public abstract IReadOnlyList<string> CreateStatements(bool withKey);

    /// <summary>
    /// The transition's statements, run like <see cref="CreateStatements"/>: the first is the conditional update
    /// returning the new document; with a key, the key is stored in the same unit (a statement of its own or the same one).
    /// </summary>
    public abstract IReadOnlyList<string> TransitionStatements(TransitionCommand command);

    /// <summary>The document of <c>id</c>.</summary>
    public abstract string SelectDocument { get; }

    /// <summary>A create's stored key: request_hash, the document of its order. Bound by <see cref="AddKeyLookup"/>.</summary>
    public abstract string SelectCreateKey { get; }

    /// <summary>A transition's stored key: request_hash, order_id, version, the document of its order (or null). Bound by <see cref="AddKeyLookup"/>.</summary>
    public abstract string SelectTransitionKey { get; }

    /// <summary>The documents of the ids bound by <see cref="AddIdSet"/>, in one parameter (the Json batch filter).</summary>
    public abstract string SelectManyByIdSet { get; }

    /// <summary>The documents of <paramref name="count"/> ids bound by <see cref="AddIdList"/> (the InList batch filter).</summary>
    public abstract string SelectManyByIdList(int count);

    /// <summary>The key clean-up's batch: at most <c>limit</c> keys stored before <c>before</c>, oldest first.</summary>
    public abstract string DeleteExpiredKeys { get; }

    /// <summary>The id a keyed create's order gets from its key, or null when the request's id stands.</summary>
    public virtual Guid? CreatedOrderId(string key) => null;

    /// <summary>True when <paramref name="exception"/> says the transition's key was already stored (a concurrent retry won).</summary>
    public virtual bool IsKeyTaken(DbException exception) => false;

    // ---- Values --------------------------------------------------------------------------------

    public abstract void AddCreate(DbParameterCollection parameters, Order stored, string document, NewOrder order);

    public abstract void AddTransition(DbParameterCollection parameters, TransitionCommand command);

    public abstract void AddId(DbParameterCollection parameters, string name, Guid id);

    public abstract void AddText(DbParameterCollection parameters, string name, string value);

    public abstract void AddInteger(DbParameterCollection parameters, string name, int value);

    /// <summary>A timestamp as the created_at columns store it.</summary>
    public abstract void AddTimestamp(DbParameterCollection parameters, string name, DateTimeOffset at);

    public abstract void AddIdSet(DbParameterCollection parameters, Guid[] ids);

    public abstract void AddIdList(DbParameterCollection parameters, Guid[] ids);

    /// <summary>A key look-up's parameters: <c>key</c>, and whatever else the engine finds it by (<paramref name="orderId"/> on Citus).</summary>
    public virtual void AddKeyLookup(DbParameterCollection parameters, string key, Guid orderId) => AddText(parameters, "key", key);

    public abstract Guid ReadId(DbDataReader reader, int ordinal);

    public abstract DateTimeOffset ReadTimestamp(DbDataReader reader, int ordinal);
}
