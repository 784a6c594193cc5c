using System.Globalization;
using System.Text;

namespace OrderService.Data.Document;

/// <summary>The document-layout reads alike on PostgreSQL and SQLite; each DocumentDialect has the rest.</summary>
public static class DocumentQueries
{
    public const string SelectState = "SELECT status, version FROM order_documents WHERE id = @id";

    public static string PagePositions(bool withStatus, bool withAfter) =>
        PagePositionTexts[(withStatus ? 2 : 0) + (withAfter ? 1 : 0)];

    /// <summary>The documents from (@top_at, @top_id) to (@last_at, @last_id), in listing order, no limit.</summary>
    public static string PageRange(bool withStatus) => withStatus ? PageRangeWithStatus : PageRangeAll;

    // Written out rather than as row values: "created_at <= x" is a plain index range on both engines.
    private const string PageRangeAll = """
        SELECT document FROM order_documents
        WHERE customer_id = @customer_id
          AND created_at <= @top_at AND (created_at < @top_at OR id <= @top_id)
          AND created_at >= @last_at AND (created_at > @last_at OR id >= @last_id)
        ORDER BY created_at DESC, id DESC
        """;

    private static readonly string PageRangeWithStatus =
        PageRangeAll.Replace("WHERE customer_id = @customer_id",
        "WHERE customer_id = @customer_id AND status = @status", StringComparison.Ordinal);

    private static readonly string[] PagePositionTexts =
    [
        .. from withStatus in (bool[])[false, true]
           from withAfter in (bool[])[false, true]
           select "SELECT created_at, id FROM order_documents WHERE customer_id = @customer_id" +
                  (withStatus ? " AND status = @status" : "") +
                  (withAfter ? " AND created_at <= @after_at AND (created_at < @after_at OR id < @after_id)" : "") +
                  " ORDER BY created_at DESC, id DESC LIMIT @take",
    ];

    public const string Ready = "SELECT 1";

    /// <summary>SELECT … WHERE id IN ($1, …, $n): one parameter per id (the InList batch filter).</summary>
    public static string SelectManyByList(int count)
    {
        var sql = new StringBuilder("SELECT document FROM order_documents WHERE id IN (", 64 + (count * 7));
        for (var i = 0; i < count; i++)
        {
            sql.Append(i == 0 ? "" : ", ").Append(Positional(i));
        }

        return sql.Append(')').ToString();
    }

    /// <summary>The placeholder of the id at <paramref name="index"/>; SQLite binds it by that name.</summary>
    public static string Positional(int index) => "$" + (index + 1).ToString(CultureInfo.InvariantCulture);
}
