using System.Globalization;
using System.Text;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

/// <summary>The SQL text of one relational engine for <see cref="RelationalOrderStore"/>.</summary>
public abstract partial class SqlDialect
{
    // Each text is built on first use because the Build* methods are virtual; a race builds one twice, harmlessly.
    private static readonly int TransitionSlots = Enum.GetValues<OrderAction>().Length * 4;
    private readonly string?[] _transitionWrites = new string?[TransitionSlots];
    private readonly string?[] _transitions = new string?[TransitionSlots];
    private string? _selectOrderById;
    private string? _selectOrdersByIdSet;
    private string? _createOrder;
    private string? _createOrderWithKey;

    /// <summary>The db.system name in telemetry (<c>sqlite</c>, <c>postgresql</c>, <c>mssql</c>).</summary>
    public abstract string ProviderName { get; }

    /// <summary>The most parameters one command may carry; the InList batch filter chunks below it.</summary>
    public abstract int MaxParametersPerCommand { get; }

    /// <summary>An order id as a parameter value (SQLite stores the canonical text).</summary>
    public virtual object Id(Guid id) => id;

    /// <summary>A timestamp as a parameter value (SQLite stores sortable ISO-8601 text).</summary>
    public virtual object Timestamp(DateTimeOffset at) => at;

    /// <summary>The id a create with <paramref name="key"/> must take, or null to keep the one it brings.</summary>
    public virtual Guid? CreatedOrderId(string key) => null;

    /// <summary>The value of <c>@Ids</c> for the Json batch filter: by default a JSON array of the id texts.</summary>
    public virtual object IdSet(IReadOnlyList<Guid> ids) =>
        ids.Count == 0 ? "[]" : string.Create((ids.Count * IdSetItemLength) + 1, ids, static (json, ids) =>
    {
        // ["…","…"]: written in place, one string (a StringBuilder and a string per id otherwise).
        json[0] = '[';
        for (var i = 0; i < ids.Count; i++)
        {
            var item = json.Slice(1 + (i * IdSetItemLength), IdSetItemLength);
            item[0] = '"';
            ids[i].TryFormat(item[1..], out _, "D");
            item[37] = '"';
            item[38] = i == ids.Count - 1 ? ']' : ',';
        }
    });

    private const int IdSetItemLength = 39;

    /// <summary>The Dapper parameters of <see cref="SelectOrdersByIdSet"/>.</summary>
    public virtual IStatementParameters IdSetParameters(IReadOnlyList<Guid> ids) => new StatementArguments()
        .Value("Ids", IdSet(ids));

    /// <summary>A table in the FROM of a read, with its alias.</summary>
    protected virtual string ReadFrom(string table, string alias) => $"{table} {alias}";

    /// <summary>A scalar subquery: the order's lines as a JSON array text, ordered by line_no.</summary>
    protected abstract string LinesJson(string orderAlias);

    /// <summary>
    /// A scalar subquery: the order's events as a JSON array text, ordered by sequence, data as objects.
    /// </summary>
    protected abstract string EventsJson(string orderAlias);

    /// <summary>The filter "column is one of the ids in the one parameter <paramref name="parameter"/>".</summary>
    protected abstract string IdIsInSet(string column, string parameter);

    /// <summary>Words right after SELECT that cap the rows (SQL Server: <c>TOP (@Limit) </c>).</summary>
    protected virtual string TopRows(string parameter) => "";

    /// <summary>Words at the end of a SELECT that cap the rows.</summary>
    protected virtual string LimitRows(string parameter) => $" LIMIT {parameter}";

    /// <summary>One order row (see <see cref="BuildOrderProjection"/>) for <c>@Id</c>, or no row.</summary>
    public string SelectOrderById => _selectOrderById ??= BuildSelectOrderById();

    /// <summary>Order rows whose id is in the one parameter <c>@Ids</c>, ordered by id.</summary>
    public string SelectOrdersByIdSet => _selectOrdersByIdSet ??=
        $"{BuildOrderProjection()} WHERE {IdIsInSet("o.id", "@Ids")} ORDER BY {IdOrder}";

    /// <summary>Creates an order atomically; a known key or id inserts nothing, which is not an error.</summary>
    public string CreateOrder(bool withIdempotencyKey) => withIdempotencyKey
        ? _createOrderWithKey ??= BuildCreateOrder(withIdempotencyKey: true)
        : _createOrder ??= BuildCreateOrder(withIdempotencyKey: false);

    /// <summary>A transition's conditional write, atomic; its version row comes back only when it wrote.</summary>
    public string TransitionWrite(OrderAction action, bool checksVersion, bool withKey = false) =>
        _transitionWrites[Slot(action, checksVersion, withKey)] ??=
            BuildTransitionWrite(action, checksVersion, withKey);

    /// <summary><see cref="TransitionWrite"/> and the read-back in one command.</summary>
    public string Transition(OrderAction action, bool checksVersion, bool withKey = false) =>
        _transitions[Slot(action, checksVersion, withKey)] ??= BuildTransition(action, checksVersion, withKey);

    /// <summary>Order rows whose id is one of <c>@Id0 .. @Id{count-1}</c>, ordered by id.</summary>
    public string SelectOrdersByIdList(int count)
    {
        var sql = new StringBuilder(BuildOrderProjection()).Append(" WHERE o.id IN (");
        for (var i = 0; i < count; i++)
        {
            sql.Append(i == 0 ? "@Id" : ", @Id").Append(i.ToString(CultureInfo.InvariantCulture));
        }

        return sql.Append(") ORDER BY ").Append(IdOrder).ToString();
    }

    /// <summary>The ORDER BY of the batch reads: the order the engine streams ids in.</summary>
    protected virtual string IdOrder => "o.id";

    /// <summary>SELECT list + FROM for orders, one row per order, columns in this order.</summary>
    protected string BuildOrderProjection() =>
        $"SELECT o.id, o.customer_id, o.status, o.total, o.version, o.created_at, o.updated_at, " +
        $"{LinesJson("o")} AS lines, {EventsJson("o")} AS events FROM {ReadFrom("orders", "o")}";

    protected virtual string BuildSelectOrderById() => $"{BuildOrderProjection()} WHERE o.id = @Id";

    protected abstract string BuildCreateOrder(bool withIdempotencyKey);

    protected abstract string BuildTransitionWrite(OrderAction action, bool checksVersion, bool withKey);

    /// <summary>
    /// Builds <see cref="Transition"/>: ONE result set, the order row after the write, only when it wrote.
    /// </summary>
    protected abstract string BuildTransition(OrderAction action, bool checksVersion, bool withKey);

    /// <summary>The WHERE of a conditional write: id, allowed statuses inlined, and the version.</summary>
    protected static string ConditionalWriteFilter(OrderAction action, bool checksVersion, string alias = "")
    {
        var prefix = alias.Length == 0 ? "" : alias + ".";
        var allowed = string.Join(", ", Transitions.AllowedFrom(action).Select(s => $"'{s}'"));
        return $"{prefix}id = @Id AND {prefix}status IN ({allowed})"
            + (checksVersion ? $" AND {prefix}version = @Expected" : "");
    }

    /// <summary>The SET of a conditional write: the target status inlined, version + 1, updated_at.</summary>
    protected static string ConditionalWriteSet(OrderAction action) =>
        $"status = '{Transitions.Target(action)}', version = version + 1, updated_at = @At";

    private static int Slot(OrderAction action, bool checksVersion, bool withKey) => ((int)action * 4)
        + (checksVersion ? 2 : 0) + (withKey ? 1 : 0);
}
