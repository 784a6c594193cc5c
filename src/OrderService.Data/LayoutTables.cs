using System.Data.Common;
using System.Globalization;
using Dapper;
using OrderService.Data.Relational;

namespace OrderService.Data;

/// <summary>Which tables belong to which layout.</summary>
public static class LayoutTables
{
    /// <summary>Counting stops here, so the check stays cheap on a big table.</summary>
    public const int CountCap = 100_000;

    public static IReadOnlyList<string> Of(StoreLayout layout) => layout == StoreLayout.Relational
        ? ["orders", "order_lines", "order_events", "customers", "idempotency_keys"]
        : ["order_documents", "order_document_keys"];

    public static StoreLayout Other(StoreLayout layout) =>
        layout == StoreLayout.Relational ? StoreLayout.Document : StoreLayout.Relational;

    /// <summary>The rows of each of <paramref name="tables"/> that exists and is not empty.</summary>
    public static async Task<IReadOnlyList<TableRows>> CountRowsAsync(DbConnection connection,
        IEnumerable<string> tables, string tableExistsSql, CancellationToken cancellationToken)
    {
        var found = new List<TableRows>();
        foreach (var table in tables)
        {
            var exists = await connection.ExecuteScalarAsync<long>(
                new CommandDefinition(tableExistsSql, new StatementArguments().Text("name", table),
                cancellationToken: cancellationToken));
            if (exists == 0)
            {
                continue;
            }

            // The names come from the list above, never from input.
            var rows = await connection.ExecuteScalarAsync<long>(new CommandDefinition(
                $"SELECT count(*) FROM (SELECT 1 FROM {table} LIMIT {CountCap + 1}) AS capped",
                    cancellationToken: cancellationToken));
            if (rows > 0)
            {
                found.Add(new TableRows(table, rows));
            }
        }

        return found;
    }
}

/// <summary>How many rows a table holds; above <see cref="LayoutTables.CountCap"/> it says "more than".</summary>
public sealed record TableRows(string Table, long Rows)
{
    public override string ToString() => Rows > LayoutTables.CountCap
        ? string.Create(CultureInfo.InvariantCulture, $"{Table} (more than {LayoutTables.CountCap:N0} rows)")
        : string.Create(CultureInfo.InvariantCulture, $"{Table} ({Rows:N0} {(Rows == 1 ? "row" : "rows")})");
}
