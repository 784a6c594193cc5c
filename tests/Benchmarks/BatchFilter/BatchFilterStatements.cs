using System.Globalization;
using Npgsql;

namespace OrderService.Benchmarks.BatchFilter;

/// <summary>
/// What PostgreSQL prepared and planned for the batch query, per filter: pg_prepared_statements on each
/// filter's own (only) connection, pg_stat_statements (preloaded in the throwaway cluster), and EXPLAIN
/// ANALYZE of both filters at the largest size. Printed after the benchmark, or alone with
/// `-- batch-filter-statements` (each size run 3 times per filter first; about a minute with the seeding).
/// </summary>
public static class BatchFilterStatements
{
    public static async Task RunAloneAsync()
    {
        foreach (var filter in new[] { Data.BatchFilter.Json, Data.BatchFilter.InList })
        {
            var store = await BatchFilterData.StoreAsync("PostgreSql", filter);
            foreach (var size in BatchFilterData.Sizes())
            {
                var ids = BatchFilterData.PickIds(size);
                for (var run = 0; run < 3; run++)
                {
                    var found = await BatchFilterBenchmarks.CountAsync(store, ids);
                    if (found != size)
                    {
                        throw new InvalidOperationException($"{filter}: {found} orders for {size} ids.");
                    }
                }
            }
        }

        await PrintAsync();
    }

    public static async Task PrintAsync()
    {
        var sources = BatchFilterData.PostgresSources().ToList();
        if (sources.Count == 0 || BatchFilterData.PostgresConnectionString is not { } database)
        {
            return;
        }

        Console.WriteLine();
        Console.WriteLine("## PostgreSQL batch query: prepared statements per filter (pg_prepared_statements, on the filter's one connection)");
        foreach (var (filter, source) in sources)
        {
            await using var connection = await source.OpenConnectionAsync();
            await using var command = new NpgsqlCommand(
                "SELECT coalesce(array_length(parameter_types, 1), 0), generic_plans, custom_plans FROM pg_prepared_statements " +
                "WHERE statement LIKE '%FROM orders o WHERE o.id %' ORDER BY 1", connection);
            await using var reader = await command.ExecuteReaderAsync();
            var rows = new List<string>();
            while (await reader.ReadAsync())
            {
                rows.Add(string.Create(CultureInfo.InvariantCulture, $"{reader.GetInt32(0)} parameter(s): {reader.GetInt64(1)} generic / {reader.GetInt64(2)} custom plans"));
            }

            Console.WriteLine($"{filter}: {rows.Count} distinct prepared statement(s) for the batch query");
            rows.ForEach(row => Console.WriteLine("  " + row));
        }

        await using (var connection = new NpgsqlConnection(database))
        {
            await connection.OpenAsync();
            Console.WriteLine();
            Console.WriteLine("## pg_stat_statements: distinct statements (queryid) per filter");
            await using (var command = new NpgsqlCommand(
                "SELECT CASE WHEN query LIKE '%= ANY(%' THEN 'Json' ELSE 'InList' END, count(DISTINCT queryid), sum(calls), " +
                "round(sum(total_plan_time)::numeric, 1), round(sum(total_exec_time)::numeric, 1) FROM pg_stat_statements " +
                "WHERE query LIKE '%FROM orders o WHERE o.id %' AND query NOT LIKE 'EXPLAIN%' GROUP BY 1 ORDER BY 1", connection))
            await using (var reader = await command.ExecuteReaderAsync())
            {
                while (await reader.ReadAsync())
                {
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                        $"{reader.GetString(0)}: {reader.GetInt64(1)} statement(s), {reader.GetDecimal(2)} calls, plan {reader.GetDecimal(3)} ms, exec {reader.GetDecimal(4)} ms"));
                }
            }

            await ExplainAsync(connection, BatchFilterData.Sizes().Max());
        }
    }

    /// <summary>EXPLAIN ANALYZE of both filters' statements at one size, with the store's own SQL text.</summary>
    private static async Task ExplainAsync(NpgsqlConnection connection, int size)
    {
        var dialect = new Data.PostgreSql.PostgreSqlDialect();
        var ids = BatchFilterData.PickIds(size).OrderBy(id => id.ToString(), StringComparer.Ordinal).ToArray();

        await using var json = new NpgsqlCommand("EXPLAIN (ANALYZE, SUMMARY) " + dialect.SelectOrdersByIdSet.Replace("@Ids", "$1", StringComparison.Ordinal), connection);
        json.Parameters.Add(new NpgsqlParameter { Value = ids });
        await PrintPlanAsync($"Json, {size} ids", json);

        var inListSql = dialect.SelectOrdersByIdList(size);
        for (var i = size - 1; i >= 0; i--)
        {
            inListSql = inListSql.Replace("@Id" + i.ToString(CultureInfo.InvariantCulture), "$" + (i + 1).ToString(CultureInfo.InvariantCulture), StringComparison.Ordinal);
        }

        await using var inList = new NpgsqlCommand("EXPLAIN (ANALYZE, SUMMARY) " + inListSql, connection);
        foreach (var id in ids)
        {
            inList.Parameters.Add(new NpgsqlParameter { Value = id });
        }

        await PrintPlanAsync($"InList, {size} ids", inList);
    }

    private static async Task PrintPlanAsync(string title, NpgsqlCommand command)
    {
        Console.WriteLine();
        Console.WriteLine($"## EXPLAIN ANALYZE, {title}");
        await using var reader = await command.ExecuteReaderAsync();
        var lines = new List<string>();
        while (await reader.ReadAsync())
        {
            lines.Add(reader.GetString(0));
        }

        foreach (var line in lines)
        {
            Console.WriteLine(line.Length > 160 ? line[..160] + " ..." : line);
        }
    }
}
