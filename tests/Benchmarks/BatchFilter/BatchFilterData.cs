using System.Globalization;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using OrderService.Data;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Testing;

namespace OrderService.Benchmarks.BatchFilter;

/// <summary>
/// The 100,000 orders the batch-filter benchmark reads, seeded ONCE per store per process (the benchmark
/// runs in process, so every case shares them) with set-based SQL: no round trip per order.
/// SQLite: a prebuilt file cached under artifacts/benchdata (delete it to rebuild); PostgreSQL: a throwaway
/// cluster with pg_stat_statements preloaded, seeded by INSERT ... SELECT FROM generate_series.
/// Every order: 2 lines and its Created event, 1,000 customers; ids are the same on both stores.
/// </summary>
public static class BatchFilterData
{
    public const int Orders = 100_000;

    // Ids look random (the first group is i times an odd constant modulo 2^32, a bijection) and are the
    // same text on every engine, so a case reads the same orders from each store.
    private const string SqliteId = "printf('%08x-0000-4000-8000-%012x', (i * 2654435761) % 4294967296, i)";
    private const string PostgresId = "(lpad(to_hex((i::bigint * 2654435761) % 4294967296), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid";

    private static readonly SemaphoreSlim Gate = new(1, 1);
    private static readonly Dictionary<(string Store, Data.BatchFilter Filter), StoreBundle> Stores = [];
    private static readonly Dictionary<Data.BatchFilter, NpgsqlDataSource> PostgresPools = [];
    private static Guid[]? _ids;
    private static ThrowawayPostgres? _postgres;
    private static string? _postgresDatabase;

    /// <summary>
    /// Stores the benchmark can run here: SQLite always, PostgreSQL when its binaries (or ORDERS_TEST_POSTGRES) are
    /// there; ORDERS_BENCH_STORES=PostgreSql (comma-separated) keeps only those, for a shorter rerun.
    /// </summary>
    public static IEnumerable<string> AvailableStores()
    {
        var only = Environment.GetEnvironmentVariable("ORDERS_BENCH_STORES")?.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        var stores = new List<string> { "Sqlite" };
        if (ThrowawayPostgres.FindBinDirectory() is not null
            || !string.IsNullOrWhiteSpace(Environment.GetEnvironmentVariable(ThrowawayPostgres.ExternalServerVariable)))
        {
            stores.Add("PostgreSql");
        }

        return only is { Length: > 0 } ? stores.Where(s => only.Contains(s, StringComparer.OrdinalIgnoreCase)) : stores;
    }

    /// <summary>The connection string of the seeded PostgreSQL database, once a PostgreSQL case has run.</summary>
    public static string? PostgresConnectionString => _postgresDatabase;

    /// <summary>
    /// <paramref name="count"/> distinct seeded ids, the same for a given count on every store and filter
    /// (a fixed seed per count), so Json and InList read exactly the same orders.
    /// </summary>
    public static Guid[] PickIds(int count)
    {
        var all = _ids ?? throw new InvalidOperationException("Call StoreAsync first.");
        var random = new Random(count);
        return random.GetItems(Enumerable.Range(0, all.Length).ToArray(), count * 2).Distinct().Take(count).Select(i => all[i]).ToArray();
    }

    public static async Task<IOrderStore> StoreAsync(string store, Data.BatchFilter filter)
    {
        await Gate.WaitAsync();
        try
        {
            if (!Stores.TryGetValue((store, filter), out var bundle))
            {
                bundle = store switch
                {
                    "Sqlite" => await SqliteAsync(filter),
                    "PostgreSql" => await PostgresAsync(filter),
                    _ => throw new ArgumentOutOfRangeException(nameof(store), store, "Unknown store."),
                };
                Stores[(store, filter)] = bundle;
            }

            return bundle.Store;
        }
        finally
        {
            Gate.Release();
        }
    }

    /// <summary>The one-connection pool of each PostgreSQL filter's store built so far (for pg_prepared_statements).</summary>
    public static IEnumerable<(Data.BatchFilter Filter, NpgsqlDataSource Source)> PostgresSources() =>
        PostgresPools.Select(p => (p.Key, p.Value));

    /// <summary>Disposes the pools and stops the throwaway cluster (also stopped at process exit).</summary>
    public static async Task DisposeAsync()
    {
        foreach (var bundle in Stores.Values)
        {
            await bundle.DisposeAsync();
        }

        Stores.Clear();
        PostgresPools.Clear();
        if (_postgres is not null)
        {
            await _postgres.DisposeAsync();
            _postgres = null;
        }
    }

    private static StoreBundle Create(StoreProvider provider, string connectionString, Data.BatchFilter filter)
    {
        var options = new StoreOptions { Provider = provider, BatchFilter = filter };
        var context = new ServiceCollection().AddSqliteOrderStore().AddPostgreSqlOrderStore()
            .AddSingleton(container => new StoreContext(options, connectionString, container))
            .BuildServiceProvider().GetRequiredService<StoreContext>();
        if (provider == StoreProvider.Sqlite)
        {
            return SqliteStores.Create(context);
        }

        PostgresPools[filter] = context.Services.GetRequiredKeyedService<NpgsqlDataSource>(PostgreSqlRegistration.PrimaryDataSource);
        return PostgreSqlStores.Create(context);
    }

    private static async Task<StoreBundle> SqliteAsync(Data.BatchFilter filter)
    {
        var file = Path.Combine(BenchPaths.DataDirectory(), $"batch-filter-{Orders}.v2.db");
        var connectionString = $"Data Source={file}";
        if (!File.Exists(file))
        {
            var building = file + ".building";
            DeleteSqlite(building);
            var seeding = Create(StoreProvider.Sqlite, $"Data Source={building}", filter);
            await seeding.Schema.EnsureCreatedAsync(CancellationToken.None);
            await seeding.DisposeAsync();
            await using (var connection = new SqliteConnection($"Data Source={building};Pooling=False"))
            {
                await connection.OpenAsync();
                await ExecuteAsync(connection, SqliteSeed, SqliteId);
            }

            File.Move(building, file);
            Console.WriteLine($"// batch filter: seeded {Orders:N0} orders into {file}");
        }

        var bundle = Create(StoreProvider.Sqlite, connectionString, filter);
        await bundle.Schema.EnsureCreatedAsync(CancellationToken.None);
        if (_ids is null)
        {
            await using var connection = new SqliteConnection(connectionString + ";Mode=ReadOnly;Pooling=False");
            await connection.OpenAsync();
            _ids = await ReadIdsAsync(connection, static r => Guid.Parse(r.GetString(0)));
        }

        return bundle;
    }

    private static async Task<StoreBundle> PostgresAsync(Data.BatchFilter filter)
    {
        if (_postgresDatabase is null)
        {
            _postgres = await ThrowawayPostgres.StartAsync(new Dictionary<string, string>
            {
                ["shared_preload_libraries"] = "'pg_stat_statements'",
                ["pg_stat_statements.track"] = "'all'",
                ["pg_stat_statements.track_planning"] = "on",
            });
            var database = await _postgres.CreateDatabaseAsync("batch_filter");
            var seeding = Create(StoreProvider.PostgreSql, database, filter);
            await seeding.Schema.EnsureCreatedAsync(CancellationToken.None);
            await seeding.DisposeAsync();
            await using (var connection = new NpgsqlConnection(database))
            {
                await connection.OpenAsync();
                await ExecuteAsync(connection, PostgresSeed, PostgresId);
                _ids ??= await ReadIdsAsync(connection, static r => r.GetGuid(0));
            }

            Console.WriteLine($"// batch filter: seeded {Orders:N0} orders into PostgreSQL ({_postgres.Description})");
            _postgresDatabase = database;
        }

        // One connection per filter's store: what pg_prepared_statements shows on it is exactly what that
        // filter prepared (BatchFilterStatements). Sequential cases never need a second connection.
        var single = new NpgsqlConnectionStringBuilder(_postgresDatabase) { ApplicationName = $"batch-{filter}", ConnectionIdleLifetime = 3600 };
        return Create(StoreProvider.PostgreSql, single.ConnectionString + ";Maximum Pool Size=1", filter);
    }

    private static async Task ExecuteAsync(System.Data.Common.DbConnection connection, string sql, string id)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql.Replace("{Orders}", Orders.ToString(CultureInfo.InvariantCulture), StringComparison.Ordinal)
            .Replace("{Id}", id, StringComparison.Ordinal);
        command.CommandTimeout = 600;
        await command.ExecuteNonQueryAsync();
    }

    private static async Task<Guid[]> ReadIdsAsync(System.Data.Common.DbConnection connection, Func<System.Data.Common.DbDataReader, Guid> read)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = "SELECT id FROM orders ORDER BY created_at";
        await using var reader = await command.ExecuteReaderAsync();
        var ids = new List<Guid>(Orders);
        while (await reader.ReadAsync())
        {
            ids.Add(read(reader));
        }

        return ids.Count == Orders ? [.. ids] : throw new InvalidOperationException($"Expected {Orders} seeded orders, found {ids.Count}.");
    }

    private static void DeleteSqlite(string file)
    {
        foreach (var path in new[] { file, file + "-wal", file + "-shm" })
        {
            File.Delete(path);
        }
    }

    // {Orders} and {Id} are replaced before the script runs (ExecuteAsync).
    private const string SqliteSeed = """
        BEGIN;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO customers (id, created_at) SELECT 'customer-' || i, '2026-01-01T00:00:00.000000Z' FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {Orders})
        INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at)
        SELECT {Id}, 'customer-' || (i % 1000 + 1), 'Created', 32.50, 1,
               strftime('%Y-%m-%dT%H:%M:%S', 1767225600 + i, 'unixepoch') || '.000000Z',
               strftime('%Y-%m-%dT%H:%M:%S', 1767225600 + i, 'unixepoch') || '.000000Z' FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {Orders})
        INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price)
        SELECT {Id}, 1, 'SKU-' || (i % 50), 1, 12.50 FROM n
        UNION ALL SELECT {Id}, 2, 'SKU-' || (i % 70), 2, 10.00 FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {Orders})
        INSERT INTO order_events (order_id, sequence, type, at, data)
        SELECT {Id}, 1, 'Created', strftime('%Y-%m-%dT%H:%M:%S', 1767225600 + i, 'unixepoch') || '.000000Z', '{"total":32.50}' FROM n;
        COMMIT;
        PRAGMA wal_checkpoint(TRUNCATE);
        ANALYZE;
        """;

    // ANALYZE, not VACUUM: the script runs as one batch, which PostgreSQL treats as one transaction block.
    private const string PostgresSeed = """
        CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
        INSERT INTO customers (id, created_at) SELECT 'customer-' || i, timestamptz '2026-01-01Z' FROM generate_series(1, 1000) i;
        INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at)
        SELECT {Id}, 'customer-' || (i % 1000 + 1), 'Created', 32.50, 1,
               timestamptz '2026-01-01Z' + i * interval '1 second', timestamptz '2026-01-01Z' + i * interval '1 second'
        FROM generate_series(1, {Orders}) i;
        INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price)
        SELECT {Id}, 1, 'SKU-' || (i % 50), 1, 12.50 FROM generate_series(1, {Orders}) i
        UNION ALL SELECT {Id}, 2, 'SKU-' || (i % 70), 2, 10.00 FROM generate_series(1, {Orders}) i;
        INSERT INTO order_events (order_id, sequence, type, at, data)
        SELECT {Id}, 1, 'Created', timestamptz '2026-01-01Z' + i * interval '1 second', '{"total": 32.50}'::jsonb
        FROM generate_series(1, {Orders}) i;
        ANALYZE orders;
        ANALYZE order_lines;
        ANALYZE order_events;
        """;
}
