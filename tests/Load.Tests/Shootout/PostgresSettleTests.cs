using Npgsql;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Load.Tests.Shootout;

/// <summary>
/// What the harness does to a PostgreSQL row's database before its measured window: ANALYZE, so that the row is measured
/// with the statistics a production database has (docs/stores/postgresql.md#prepared-statements-keep-one-plan).
/// </summary>
public sealed class PostgresSettleTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact(Timeout = 120_000)]
    public async Task Settling_analyzes_the_rows_database()
    {
        Assert.SkipWhen(PostgresTarget.BinDirectory is null, "PostgreSQL binaries are not installed here.");
        await using var target = await StoreTarget.OpenAsync(StoreKind.PostgreSql,
            new ShootoutOptions { Stores = [StoreKind.PostgreSql], OutputDirectory = Path.GetTempPath() });
        var connectionString = await target.FreshDatabaseAsync("settle", Ct);
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(Ct);
        await using (var create = new NpgsqlCommand("CREATE TABLE rows_to_count (id int PRIMARY KEY); INSERT INTO rows_to_count SELECT generate_series(1, 500)", connection))
        {
            await create.ExecuteNonQueryAsync(Ct);
        }

        (await EstimatedRowsAsync(connection)).ShouldBe(-1, "a table never analyzed has no row estimate");

        await target.SettleAsync(connectionString, Ct);

        (await EstimatedRowsAsync(connection)).ShouldBe(500);
    }

    /// <summary>pg_class.reltuples: -1 until the table is first analyzed (or vacuumed), then its rows.</summary>
    private static async Task<float> EstimatedRowsAsync(NpgsqlConnection connection)
    {
        await using var command = new NpgsqlCommand("SELECT reltuples FROM pg_class WHERE relname = 'rows_to_count'", connection);
        return (float)(await command.ExecuteScalarAsync(Ct))!;
    }
}
