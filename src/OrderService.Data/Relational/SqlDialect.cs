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

    protected SqlDialect(ReadIsolation readIsolation)
    {
        ReadIsolation = readIsolation;
    }

    /// <summary>The db.system name in telemetry (<c>sqlite</c>, <c>postgresql</c>, <c>mssql</c>).</summary>
    public abstract string ProviderName { get; }

    /// <summary>The most parameters one command may carry; the InList batch filter chunks below it.</summary>
    public abstract int MaxParametersPerCommand { get; }

    public ReadIsolation ReadIsolation { get; }

    /// <summary>An order id as a parameter value (SQLite stores the canonical text).</summary>
    public virtual object Id(Guid id) => id;

    /// <summary>A timestamp as a parameter value (SQLite stores sortable ISO-8601 text).</summary>
    public virtual object Timestamp(DateTimeOffset at) => at;

    /// <summary>The value of <c>@Ids</c> for the Json batch filter: one parameter for all ids.</summary>
    public abstract object IdSet(IReadOnlyList<Guid> ids);

    /// <summary>The Dapper parameters of <see cref="SelectOrdersByIdSet"/>.</summary>
    public virtual IStatementParameters IdSetParameters(IReadOnlyList<Guid> ids) => new StatementArguments()
        .Value("Ids", IdSet(ids));

    /// <summary>A table in the FROM of a read, with its alias.</summary>
    protected virtual string ReadFrom(string table, string alias) => $"{table} {alias}";

    /// <summary>A JSON text parameter where a JSON column value is expected (PostgreSQL casts to jsonb).</summary>
    protected virtual string JsonValue(string parameter) => parameter;

    /// <summary>A scalar subquery: the order's lines as a JSON array text, ordered by line_no.</summary>
    protected abstract string LinesJson(string orderAlias);

    /// <summary>
    /// A scalar subquery: the order's events as a JSON array text, ordered by sequence, data as objects.
    /// </summary>
    protected abstract string EventsJson(string orderAlias);

    /// <summary>A FROM source, aliased l, over the lines JSON array parameter <paramref name="parameter"/>.</summary>
    protected abstract string LinesFromJson(string parameter);

    /// <summary>The filter "column is one of the ids in the one parameter <paramref name="parameter"/>".</summary>
    protected abstract string IdIsInSet(string column, string parameter);

    /// <summary>Words right after SELECT that cap the rows (SQL Server: <c>TOP (@Limit) </c>).</summary>
    protected virtual string TopRows(string parameter) => "";

    /// <summary>Words at the end of a SELECT that cap the rows.</summary>
    protected virtual string LimitRows(string parameter) => $" LIMIT {parameter}";

    /// <summary>Turns an INSERT ... SELECT ... WHERE into one that silently skips a duplicate key.</summary>
    protected virtual string OnDuplicateDoNothing(string conflictColumns) =>
        $" ON CONFLICT ({conflictColumns}) DO NOTHING";

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

    /// <summary>See <see cref="CreateOrder"/>.</summary>
    protected virtual string BuildCreateOrder(bool withIdempotencyKey)
    {
        var ownsKey = withIdempotencyKey
            ? "EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.key = @Key AND k.order_id = @Id)"
            : "1 = 1";
        const string orderExists = "EXISTS (SELECT 1 FROM orders x WHERE x.id = @Id)";

        // Every insert skips duplicates instead of failing, so a retried create or a known key is harmless; the lines
        // and the event follow the order only when it exists.
        var sql = new StringBuilder()
            .Append("INSERT INTO customers (id, created_at) SELECT @CustomerId, @At WHERE 1 = 1")
            .Append(OnDuplicateDoNothing("id")).AppendLine(";");
        if (withIdempotencyKey)
        {
            sql.Append("INSERT INTO idempotency_keys (key, request_hash, order_id, created_at) SELECT @Key, " +
                "@RequestHash, @Id, @At WHERE 1 = 1")
                .Append(OnDuplicateDoNothing("key")).AppendLine(";");
        }

        sql.Append("INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at) ")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT @Id, @CustomerId, '{nameof(OrderStatus.Created)}', @Total, 1, @At, @At WHERE {ownsKey}")
            .Append(OnDuplicateDoNothing("id")).AppendLine(" RETURNING id;")
            .Append("INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price) ")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT @Id, l.line_no, l.sku, l.quantity, l.unit_price FROM {LinesFromJson("@Lines")} WHERE " +
                $"{orderExists}")
            .Append(OnDuplicateDoNothing("order_id, line_no")).AppendLine(";")
            .Append("INSERT INTO order_events (order_id, sequence, type, at, data) ")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT @Id, 1, '{Transitions.CreatedEventType}', @At, {JsonValue("@Data")} WHERE {orderExists}")
            .Append(OnDuplicateDoNothing("order_id, sequence")).AppendLine(";");
        if (withIdempotencyKey)
        {
            sql.Append("SELECT k.request_hash, k.order_id FROM idempotency_keys k WHERE k.key = @Key;");
        }

        return sql.ToString();
    }

    /// <summary>Builds <see cref="TransitionWrite"/>; the shape differs per engine.</summary>
    protected abstract string BuildTransitionWrite(OrderAction action, bool checksVersion, bool withKey);

    /// <summary>Builds <see cref="Transition"/>: by default the write, then the read-back, in one command.</summary>
    protected virtual string BuildTransition(OrderAction action, bool checksVersion, bool withKey) =>
        BuildTransitionWrite(action, checksVersion, withKey) + "\n" + BuildSelectOrderById() + ";";

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
