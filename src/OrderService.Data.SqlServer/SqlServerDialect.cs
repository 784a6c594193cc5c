using System.Data;
using System.Globalization;
using System.Text;
using Microsoft.Data.SqlClient;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

/// <summary>SQL Server's words; a multi-statement write is atomic on its own (XACT_ABORT).</summary>
public sealed class SqlServerDialect(ReadIsolation readIsolation) : SqlDialect
{
    public const string Provider = "mssql";

    private const string AtomicPrologue = "SET NOCOUNT ON;\nSET XACT_ABORT ON;\n";

    public override string ProviderName => Provider;

    public override int MaxParametersPerCommand => 2_100;

    /// <summary>@Ids as nvarchar(max) (Size -1): ONE declaration, so one cached plan, for any number of ids.</summary>
    public override IStatementParameters IdSetParameters(IReadOnlyList<Guid> ids) =>
        new StatementArguments().Value("Ids", IdSet(ids), DbType.String, size: -1);

    protected override string ReadFrom(string table, string alias) =>
        readIsolation == ReadIsolation.ReadUncommitted ? $"dbo.{table} {alias} WITH (NOLOCK)" : $"dbo.{table} {alias}";

    protected override string LinesJson(string orderAlias) =>
        "(SELECT l.sku AS sku, l.quantity AS quantity, l.unit_price AS unitPrice " +
        $"FROM {ReadFrom("order_lines", "l")} WHERE l.order_id = {orderAlias}.id ORDER BY l.line_no FOR JSON PATH)";

    /// <summary>JSON_QUERY embeds the stored data as an object rather than as an escaped string.</summary>
    protected override string EventsJson(string orderAlias) =>
        "(SELECT e.[sequence] AS [sequence], e.[type] AS [type], e.[at] AS [at], JSON_QUERY(e.data) AS data " +
        $"FROM {ReadFrom("order_events", "e")} WHERE e.order_id = {orderAlias}.id ORDER BY e.[sequence] FOR JSON PATH)";

    private static string LinesFromJson(string parameter) =>
        $"OPENJSON({parameter}) WITH (line_no int '$.line_no', sku nvarchar(64) '$.sku', quantity int '$.quantity', " +
        $"unit_price decimal(18,2) '$.unit_price') AS l";

    protected override string IdIsInSet(string column, string parameter) =>
        $"{column} IN (SELECT j.id FROM OPENJSON({parameter}) WITH (id uniqueidentifier '$') AS j)";

    protected override string TopRows(string parameter) => $"TOP ({parameter}) ";

    protected override string LimitRows(string parameter) => "";

    /// <summary>
    /// READPAST: a clean-up in another replica skips the rows this one holds instead of waiting on them.
    /// </summary>
    public override string DeleteExpiredKeys =>
        "DELETE TOP (@Limit) FROM dbo.idempotency_keys WITH (READPAST) WHERE created_at < @Before;";

    /// <summary>
    /// Newest first; ties go to the later insert: SQL Server does not sort uniqueidentifier in UUIDv7 order.
    /// </summary>
    protected override string KeysetTie(string alias) => $"{alias}.seq";

    protected override string KeysetTieOf(string idParameter) =>
        $"(SELECT x.seq FROM {ReadFrom("orders", "x")} WHERE x.id = {idParameter})";

    protected override string BuildSelectIdempotencyKey() =>
        "SELECT k.request_hash, k.order_id, k.version FROM dbo.idempotency_keys k WHERE k.[key] = @Key;";

    /// <summary>A primary-key violation on idempotency_keys: XACT_ABORT has rolled back the whole write.</summary>
    public override bool IsIdempotencyKeyTaken(Exception exception) =>
        exception is SqlException { Number: 2627 or 2601 } sql
            && sql.Message.Contains("idempotency_keys", StringComparison.OrdinalIgnoreCase);

    /// <summary>The id's canonical text, the order the engine streams InList chunks in.</summary>
    protected override string IdOrder => "CONVERT(char(36), o.id)";

    /// <summary>
    /// <see cref="SqlDialect.CreateOrder"/> in T-SQL; it reads @created, as Babelfish's @@ROWCOUNT is 0.
    /// </summary>
    protected override string BuildCreateOrder(bool withIdempotencyKey)
    {
        var sql = new StringBuilder(AtomicPrologue)
            .AppendLine("DECLARE @created TABLE (id uniqueidentifier NOT NULL);")
            .AppendLine("BEGIN TRANSACTION;")

            // The common case reads without blocking anyone; only a new customer takes the range lock that makes two
            // first orders of one customer queue instead of colliding.
            .AppendLine("IF NOT EXISTS (SELECT 1 FROM dbo.customers WHERE id = @CustomerId)")
            .AppendLine("    INSERT INTO dbo.customers (id, created_at) SELECT @CustomerId, @At")
            .AppendLine("    WHERE NOT EXISTS (SELECT 1 FROM dbo.customers WITH (UPDLOCK, HOLDLOCK) WHERE id = " +
                "@CustomerId);");
        if (withIdempotencyKey)
        {
            sql.AppendLine("INSERT INTO dbo.idempotency_keys ([key], request_hash, order_id, created_at) SELECT " +
                "@Key, @RequestHash, @Id, @At")
                .AppendLine("WHERE NOT EXISTS (SELECT 1 FROM dbo.idempotency_keys WITH (UPDLOCK, HOLDLOCK) WHERE " +
                    "[key] = @Key);");
        }

        sql.AppendLine("INSERT INTO dbo.orders (id, customer_id, status, total, version, created_at, updated_at)")
            .AppendLine("OUTPUT inserted.id INTO @created (id)")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT @Id, @CustomerId, N'{nameof(OrderStatus.Created)}', @Total, 1, @At, @At").AppendLine()
            .Append("WHERE NOT EXISTS (SELECT 1 FROM dbo.orders WITH (UPDLOCK, HOLDLOCK) WHERE id = @Id)")
            .AppendLine(withIdempotencyKey
                ? " AND EXISTS (SELECT 1 FROM dbo.idempotency_keys k WHERE k.[key] = @Key AND k.order_id = @Id);" : ";")

            // Lines and the Created event follow only the order this batch inserted (its id in @created).
            .AppendLine("INSERT INTO dbo.order_lines (order_id, line_no, sku, quantity, unit_price)")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT @Id, l.line_no, l.sku, l.quantity, l.unit_price FROM {LinesFromJson("@Lines")}").AppendLine()
            .AppendLine("WHERE EXISTS (SELECT 1 FROM @created c WHERE c.id = @Id);")
            .AppendLine("INSERT INTO dbo.order_events (order_id, [sequence], [type], [at], data)")
            .Append(CultureInfo.InvariantCulture,
                $"SELECT c.id, 1, N'{Transitions.CreatedEventType}', @At, @Data FROM @created c;").AppendLine()
            .AppendLine("COMMIT TRANSACTION;")
            .Append("SELECT c.id FROM @created c;");
        return sql.ToString();
    }

    /// <summary>The UPDATE's OUTPUT goes to a table variable that the event INSERT and the final SELECT read.</summary>
    protected override string BuildTransitionWrite(OrderAction action, bool checksVersion, bool withKey) =>
        TransitionBatch(action, checksVersion, withKey, "SELECT w.version FROM @written w;");

    /// <summary>The write, then the order row, read INSIDE the transaction, only if the write happened.</summary>
    protected override string BuildTransition(OrderAction action, bool checksVersion, bool withKey) =>
        TransitionBatch(action, checksVersion, withKey,
            BuildSelectOrderById() + " AND EXISTS (SELECT 1 FROM @written);");

    private static string TransitionBatch(OrderAction action, bool checksVersion, bool withKey, string result) =>
        AtomicPrologue +
        "DECLARE @written TABLE (version int NOT NULL);\n" +
        "BEGIN TRANSACTION;\n" +
        $"UPDATE dbo.orders SET {ConditionalWriteSet(action)}\n" +
        "OUTPUT inserted.version INTO @written (version)\n" +
        $"WHERE {ConditionalWriteFilter(action, checksVersion)};\n" +
        "INSERT INTO dbo.order_events (order_id, [sequence], [type], [at], data)\n" +
        $"SELECT @Id, w.version, N'{Transitions.EventType(action)}', @At, @Data FROM @written w;\n" +
        (withKey
            ? "INSERT INTO dbo.idempotency_keys ([key], request_hash, order_id, version, created_at)\n" +
              "SELECT @Key, @RequestHash, @Id, w.version, @At FROM @written w;\n"
            : "") +
        result + "\n" +
        "COMMIT TRANSACTION;";
}
