using System.Globalization;
using Microsoft.Data.SqlClient;
using MongoDB.Driver;
using Npgsql;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Testing;

namespace OrderService.Benchmarks.BatchFilter;

/// <summary>
/// The 100,000 orders the batch-filter benchmark reads, seeded ONCE per store per process (the benchmark
/// runs in process, so every case shares them) with set-based SQL: no round trip per order.
/// SQLite: a prebuilt file cached under artifacts/benchdata (delete it to rebuild); PostgreSQL: a throwaway
/// cluster with pg_stat_statements preloaded, seeded by INSERT ... SELECT FROM generate_series; SQL Server
/// (ORDERS_TEST_SQLSERVER) and MongoDB (ORDERS_TEST_MONGODB): a database of the run's own on that server, seeded
/// from the ids in chunks (OPENJSON, insertMany) and dropped at the end.
/// Every order: 2 lines and its Created event, 1,000 customers; ids are the same on every store.
/// </summary>
public static partial class BatchFilterData
{
    public const int Orders = 100_000;

    public const string SqlServerVariable = "ORDERS_TEST_SQLSERVER";
    public const string MongoDbVariable = "ORDERS_TEST_MONGODB";

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
    private static string? _sqlServerDatabase;
    private static string? _mongoDatabase;

    /// <summary>The database this run creates on a shared server (and drops at the end).</summary>
    private static readonly string RunDatabase = $"orders_batch_filter_{Guid.NewGuid():N}"[..28];

    /// <summary>
    /// Stores the benchmark can run here: SQLite always, PostgreSQL when its binaries (or ORDERS_TEST_POSTGRES) are
    /// there, SQL Server and MongoDB when their connection string is set (else skipped with the reason printed);
    /// ORDERS_BENCH_STORES=PostgreSql (comma-separated) keeps only those, for a shorter rerun.
    /// </summary>
    public static IEnumerable<string> AvailableStores()
    {
        var only = ListSetting("ORDERS_BENCH_STORES");
        var wanted = (string store) => only.Length == 0 || only.Contains(store, StringComparer.OrdinalIgnoreCase);
        var stores = new List<string> { "Sqlite" };
        if (ThrowawayPostgres.FindBinDirectory() is not null
            || !string.IsNullOrWhiteSpace(Environment.GetEnvironmentVariable(ThrowawayPostgres.ExternalServerVariable)))
        {
            stores.Add("PostgreSql");
        }

        foreach (var (store, variable) in new[] { ("SqlServer", SqlServerVariable), ("MongoDb", MongoDbVariable) })
        {
            if (!string.IsNullOrWhiteSpace(Environment.GetEnvironmentVariable(variable)))
            {
                stores.Add(store);
            }
            else if (wanted(store))
            {
                Console.WriteLine($"// batch filter: {store} skipped: {variable} (a connection string) is not set");
            }
        }

        return stores.Where(wanted);
    }

    /// <summary>The batch sizes: ORDERS_BENCH_IDS=1,16,256,2048 (comma-separated), else 2 to 10,000.</summary>
    public static int[] Sizes() => ListSetting("ORDERS_BENCH_IDS") is { Length: > 0 } sizes
        ? [.. sizes.Select(size => int.Parse(size, NumberStyles.AllowThousands, CultureInfo.InvariantCulture))]
        : [2, 8, 32, 128, 512, 2_048, 10_000];

    private static string[] ListSetting(string variable) => Environment.GetEnvironmentVariable(variable)
        ?.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries) ?? [];

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
                    "SqlServer" => await SqlServerAsync(filter),
                    "MongoDb" => await MongoAsync(filter),
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

    /// <summary>
    /// Disposes the pools, stops the throwaway cluster (also stopped at process exit) and drops the SQL Server and
    /// MongoDB databases this run created.
    /// </summary>
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

        if (_sqlServerDatabase is not null)
        {
            SqlConnection.ClearAllPools();
            var master = new SqlConnectionStringBuilder(_sqlServerDatabase)
            {
                InitialCatalog = "master",
                Pooling = false,
            };
            await using var connection = new SqlConnection(master.ConnectionString);
            await connection.OpenAsync();
            await using var drop = new SqlCommand($"DROP DATABASE [{RunDatabase}]", connection);
            drop.CommandTimeout = 120;
            await drop.ExecuteNonQueryAsync();
            _sqlServerDatabase = null;
        }

        if (_mongoDatabase is not null)
        {
            using var client = new MongoClient(_mongoDatabase);
            await client.DropDatabaseAsync(MongoUrl.Create(_mongoDatabase).DatabaseName);
            _mongoDatabase = null;
        }
    }
}
