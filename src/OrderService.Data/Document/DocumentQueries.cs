using System.Globalization;
using System.Text;

namespace OrderService.Data.Document;

/// <summary>
/// The document-layout reads whose SQL is the same on PostgreSQL and SQLite; each engine's DocumentSql
/// keeps only the statements whose words differ (jsonb vs JSON functions, parameter styles).
/// </summary>
public static class DocumentQueries
{
    public const string SelectState = "SELECT status, version FROM order_documents WHERE id = @id";

    public const string ListByCustomer = """
        SELECT document FROM order_documents
        WHERE customer_id = @customer_id
        ORDER BY created_at DESC, id DESC
        LIMIT @limit
        """;

    public const string ListByCustomerAndStatus = """
        SELECT document FROM order_documents
        WHERE customer_id = @customer_id AND status = @status
        ORDER BY created_at DESC, id DESC
        LIMIT @limit
        """;

    public const string Ready = "SELECT 1";

    /// <summary>
    /// SELECT … WHERE id IN (p1, …, pn): one parameter per id (the InList batch filter).
    /// <paramref name="placeholder"/> names parameter i (0-based) in the engine's style: <c>$1</c> or <c>@p0</c>.
    /// </summary>
    public static string SelectManyByList(int count, Func<int, string> placeholder)
    {
        var sql = new StringBuilder("SELECT document FROM order_documents WHERE id IN (", 64 + (count * 7));
        for (var i = 0; i < count; i++)
        {
            sql.Append(i == 0 ? "" : ", ").Append(placeholder(i));
        }

        return sql.Append(')').ToString();
    }

    public static string Positional(int index) => "$" + (index + 1).ToString(CultureInfo.InvariantCulture);

    public static string Named(int index) => "@p" + index.ToString(CultureInfo.InvariantCulture);
}
