using System.Data.Common;
using Dapper;

namespace OrderService.Data.Relational;

public static class LayoutTables
{
    public static IReadOnlyList<string> Of(StoreLayout layout) => layout == StoreLayout.Relational
        ? ["orders", "order_lines", "order_events", "customers", "idempotency_keys"]
        : ["order_documents", "order_document_keys"];

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
                $"SELECT count(*) FROM (SELECT 1 FROM {table} LIMIT {TableRows.CountCap + 1}) AS capped",
                    cancellationToken: cancellationToken));
            if (rows > 0)
            {
                found.Add(new TableRows(table, rows));
            }
        }

        return found;
    }
}
