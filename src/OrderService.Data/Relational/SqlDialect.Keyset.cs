namespace OrderService.Data.Relational;

/// <summary>The statements of keyset paging (the customer listing) and of the idempotency-key lookup.</summary>
public abstract partial class SqlDialect
{
    private readonly string?[] _pagePositions = new string?[4];
    private readonly string?[] _pageRanges = new string?[2];
    private string? _selectIdempotencyKey;

    /// <summary>The key's row (request_hash, order_id, version) or none; a committed read, never NOLOCK.</summary>
    public string SelectIdempotencyKey => _selectIdempotencyKey ??= BuildSelectIdempotencyKey();

    /// <summary>The positions of at most <c>@Take</c> orders of <c>@CustomerId</c>, in listing order.</summary>
    public string SelectCustomerPagePositions(bool withStatus, bool withAfter) =>
        _pagePositions[(withStatus ? 2 : 0) + (withAfter ? 1 : 0)] ??=
            BuildSelectCustomerPagePositions(withStatus, withAfter);

    /// <summary>
    /// Order rows of <c>@CustomerId</c> from (@TopAt, @TopId) to (@LastAt, @LastId), in listing order.
    /// </summary>
    public string SelectCustomerPageRange(bool withStatus) =>
        _pageRanges[withStatus ? 1 : 0] ??= BuildSelectCustomerPageRange(withStatus);

    /// <summary>True when <paramref name="exception"/> is the unique violation of a transition's key insert.</summary>
    public abstract bool IsIdempotencyKeyTaken(Exception exception);

    /// <summary>The column that breaks created_at ties; the id unless the engine cannot sort ids usefully.</summary>
    protected virtual string KeysetTie(string alias) => $"{alias}.id";

    /// <summary>The <see cref="KeysetTie"/> of the order whose id is <paramref name="idParameter"/>.</summary>
    protected virtual string KeysetTieOf(string idParameter) => idParameter;

    protected virtual string BuildSelectIdempotencyKey() =>
        "SELECT k.request_hash, k.order_id, k.version FROM idempotency_keys k WHERE k.key = @Key";

    private string BuildSelectCustomerPagePositions(bool withStatus, bool withAfter) =>
        $"SELECT {TopRows("@Take")}o.created_at, o.id FROM {ReadFrom("orders", "o")} WHERE o.customer_id = " +
        $"@CustomerId" +
        (withStatus ? " AND o.status = @Status" : "") +
        (withAfter ? $" AND {OlderThan("@AfterAt", "@AfterId")}" : "") +
        $" ORDER BY {ListingOrder}{LimitRows("@Take")}";

    private string BuildSelectCustomerPageRange(bool withStatus) =>
        $"{BuildOrderProjection()} WHERE o.customer_id = @CustomerId" +
        (withStatus ? " AND o.status = @Status" : "") +
        $" AND {NotNewerThan("@TopAt", "@TopId")} AND {NotOlderThan("@LastAt", "@LastId")}" +
        $" ORDER BY {ListingOrder}";

    private string ListingOrder => $"o.created_at DESC, {KeysetTie("o")} DESC";

    // Written out rather than as a row value, so the leading comparison is a plain range on the index everywhere.
    private string OlderThan(string at, string id) =>
        $"o.created_at <= {at} AND (o.created_at < {at} OR {KeysetTie("o")} < {KeysetTieOf(id)})";

    private string NotNewerThan(string at, string id) =>
        $"o.created_at <= {at} AND (o.created_at < {at} OR {KeysetTie("o")} <= {KeysetTieOf(id)})";

    private string NotOlderThan(string at, string id) =>
        $"o.created_at >= {at} AND (o.created_at > {at} OR {KeysetTie("o")} >= {KeysetTieOf(id)})";
}
