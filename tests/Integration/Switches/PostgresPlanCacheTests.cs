using System.Text.RegularExpressions;
using Npgsql;
using OrderService.Data;
using OrderService.Data.PostgreSql;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Switches;

/// <summary>
/// The PostgreSQL store's sessions keep one generic plan per prepared statement (plan_cache_mode=force_generic_plan),
/// read back from the server; a connection string that names its own plan_cache_mode keeps it. The one statement
/// whose best plan depended on its values, the expiry of old Idempotency-Keys, must still go through the indexes under
/// that generic plan, on tables large enough and analyzed, as autovacuum leaves them in production.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed partial class PostgresPlanCacheTests(RelationalStores stores)
{
    private const int KeyRows = 20_000;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Sessions_plan_each_prepared_statement_once_unless_the_connection_string_says_otherwise()
    {
        var options = new StoreOptions { Provider = StoreProvider.PostgreSql };
        var connectionString = await stores.NewDatabaseAsync(Engine.PostgreSql);

        await using (var database = StoreContexts.PostgresDatabase(connectionString, options))
        {
            (await ShowAsync(database, "plan_cache_mode")).ShouldBe("force_generic_plan");
        }

        var given = new NpgsqlConnectionStringBuilder(connectionString) { Options = "-c plan_cache_mode=auto" }.ConnectionString;
        await using (var database = StoreContexts.PostgresDatabase(given, options))
        {
            (await ShowAsync(database, "plan_cache_mode")).ShouldBe("auto");
            (await ShowAsync(database, "synchronous_commit")).ShouldBe("on", "the store's own settings still apply");
        }
    }

    [Theory]
    [InlineData(StoreLayout.Relational, "idempotency_keys")]
    [InlineData(StoreLayout.Document, "order_document_keys")]
    public async Task The_expiry_of_old_keys_goes_through_the_indexes_under_the_generic_plan(StoreLayout layout, string table)
    {
        var options = new StoreOptions { Provider = StoreProvider.PostgreSql, Layout = layout };
        await using var database = StoreContexts.PostgresDatabase(await stores.NewDatabaseAsync(Engine.PostgreSql), options);
        await new PostgresSchema(database, layout).EnsureCreatedAsync(Ct);
        var expiry = layout == StoreLayout.Relational
            ? new PostgreSqlDialect().DeleteExpiredKeys
            : new PostgreSqlDocumentDialect(PostgreSqlDistribution.None).DeleteExpiredKeys;

        await using var connection = await database.OpenAsync("test", Ct);
        await ExecuteAsync(connection, $"""
            INSERT INTO {table} (key, request_hash, order_id, created_at)
            SELECT 'key-' || g, 'h', gen_random_uuid(), now() - make_interval(secs => g) FROM generate_series(1, {KeyRows}) g;
            ANALYZE {table};
            PREPARE expiry(timestamptz, int) AS {Parameter().Replace(expiry, m => m.Value.Equals("@before", StringComparison.OrdinalIgnoreCase) ? "$1" : "$2")};
            """);
        await using var explain = new NpgsqlCommand("EXPLAIN (COSTS OFF) EXECUTE expiry(now() - interval '2 hours', 1000)", connection);
        var plan = new List<string>();
        await using (var reader = await explain.ExecuteReaderAsync(Ct))
        {
            while (await reader.ReadAsync(Ct))
            {
                plan.Add(reader.GetString(0));
            }
        }

        var text = string.Join("\n", plan);
        text.ShouldNotContain("Seq Scan", customMessage: $"the expiry reads the whole of {table}:\n{text}");
        text.ShouldContain($" on {table}_pkey", customMessage: $"the expiry does not delete through the key's index:\n{text}");
    }

    private static async Task<string?> ShowAsync(PostgresDatabase database, string setting)
    {
        await using var connection = await database.OpenAsync("test", Ct);
        await using var command = new NpgsqlCommand($"SHOW {setting}", connection);
        return (string?)await command.ExecuteScalarAsync(Ct);
    }

    private static async Task ExecuteAsync(NpgsqlConnection connection, string sql)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        await command.ExecuteNonQueryAsync(Ct);
    }

    [GeneratedRegex("@(before|limit)", RegexOptions.IgnoreCase)]
    private static partial Regex Parameter();
}
