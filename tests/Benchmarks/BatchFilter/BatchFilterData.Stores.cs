using System.Globalization;
using Microsoft.Data.SqlClient;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using MongoDB.Bson;
using MongoDB.Driver;
using Npgsql;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using OrderService.Data.PostgreSql;
using OrderService.Data.Resilience;
using OrderService.Data.Sqlite;
using OrderService.Data.SqlServer;
using OrderService.Testing;

namespace OrderService.Benchmarks.BatchFilter;

/// <summary>How each store gets its database and its seeded orders.</summary>
public static partial class BatchFilterData
{
    private static StoreBundle Create(StoreProvider provider, string connectionString, Data.BatchFilter filter)
    {
        // Babelfish parses each statement shape again on a new session, and FerretDB reads thousands of ids slowly.
        var options = new StoreOptions { Provider = provider, BatchFilter = filter, CommandTimeoutSeconds = 60 };
        var context = new ServiceCollection().AddSqliteOrderStore().AddPostgreSqlOrderStore()
            .Configure<ResilienceOptions>(resilience => resilience.AttemptTimeoutSeconds = 60)
            .AddSingleton(container => new StoreContext(options, connectionString, container))
            .BuildServiceProvider().GetRequiredService<StoreContext>();
        switch (provider)
        {
            case StoreProvider.Sqlite:
                return SqliteStores.Create(context);
            case StoreProvider.SqlServer:
                return SqlServerStores.Create(context);
            case StoreProvider.MongoDb:
                return MongoStores.Create(context);
            default:
                PostgresPools[filter] = context.Services
                    .GetRequiredKeyedService<NpgsqlDataSource>(PostgreSqlRegistration.PrimaryDataSource);
                return PostgreSqlStores.Create(context);
        }
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

    private static async Task<StoreBundle> SqlServerAsync(Data.BatchFilter filter)
    {
        if (_sqlServerDatabase is null)
        {
            var database = new SqlConnectionStringBuilder(Environment.GetEnvironmentVariable(SqlServerVariable))
            {
                InitialCatalog = RunDatabase,
            }.ConnectionString;
            var seeding = Create(StoreProvider.SqlServer, database, filter);
            await seeding.Schema.EnsureCreatedAsync(CancellationToken.None); // the database too
            await seeding.DisposeAsync();
            _sqlServerDatabase = database;
            await using (var connection = new SqlConnection(database))
            {
                await connection.OpenAsync();
                _ids ??= ComputedIds();
                for (var start = 0; start < Orders; start += SeedChunk)
                {
                    var rows = string.Join(',', Enumerable.Range(start + 1, Math.Min(SeedChunk, Orders - start)).Select(
                        i => string.Create(CultureInfo.InvariantCulture, $"{{\"i\":{i},\"id\":\"{_ids[i - 1]:D}\"}}")));
                    await using var command = new SqlCommand(SqlServerSeed, connection) { CommandTimeout = 600 };
                    command.Parameters.Add("@Rows", System.Data.SqlDbType.NVarChar, -1).Value = $"[{rows}]";
                    command.Parameters.Add("@At", System.Data.SqlDbType.DateTimeOffset).Value = Epoch;
                    await command.ExecuteNonQueryAsync();
                }
            }

            Console.WriteLine($"// batch filter: seeded {Orders:N0} orders into SQL Server database {RunDatabase}");
        }

        // One session per filter's store, kept warm: Babelfish compiles each statement shape once per session.
        var single = new SqlConnectionStringBuilder(_sqlServerDatabase)
        {
            ApplicationName = $"batch-{filter}",
            MaxPoolSize = 1,
        };
        return Create(StoreProvider.SqlServer, single.ConnectionString, filter);
    }

    private static async Task<StoreBundle> MongoAsync(Data.BatchFilter filter)
    {
        if (_mongoDatabase is null)
        {
            var url = new MongoUrlBuilder(Environment.GetEnvironmentVariable(MongoDbVariable))
            {
                DatabaseName = RunDatabase,
            }.ToString();
            var seeding = Create(StoreProvider.MongoDb, url, filter);
            await seeding.Schema.EnsureCreatedAsync(CancellationToken.None);
            await seeding.DisposeAsync();
            _mongoDatabase = url;
            _ids ??= ComputedIds();
            using var client = new MongoClient(url);
            var orders = client.GetDatabase(RunDatabase).GetCollection<BsonDocument>(MongoSettings.CollectionName);
            foreach (var chunk in Enumerable.Range(1, Orders).Chunk(SeedChunk))
            {
                await orders.InsertManyAsync(chunk.Select(i => OrderClassMaps.Insert(Transitions.Create(
                    _ids[i - 1],
                    $"customer-{(i % 1000) + 1}",
                    [new OrderLine($"SKU-{i % 50}", 1, 12.50m), new OrderLine($"SKU-{i % 70}", 2, 10.00m)],
                    Epoch.AddSeconds(i)))));
            }

            Console.WriteLine($"// batch filter: seeded {Orders:N0} orders into MongoDB database {RunDatabase}");
        }

        return Create(StoreProvider.MongoDb, _mongoDatabase, filter);
    }

    /// <summary>The seeded ids in created_at order: {Id} of the SQL seeds for i = 1 to <see cref="Orders"/>.</summary>
    private static Guid[] ComputedIds() => [.. Enumerable.Range(1, Orders).Select(i => Guid.Parse(
        string.Create(CultureInfo.InvariantCulture, $"{i * 2654435761L % 4294967296:x8}-0000-4000-8000-{i:x12}")))];

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

    private const int SeedChunk = 5_000;

    private static readonly DateTimeOffset Epoch = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    // One chunk of orders, i and id from @Rows; the chunk that holds i = 1 to 1,000 brings the customers.
    private const string SqlServerSeed = """
        SET NOCOUNT ON;
        INSERT INTO dbo.customers (id, created_at)
        SELECT CONCAT(N'customer-', j.i), @At FROM OPENJSON(@Rows) WITH (i int '$.i') AS j WHERE j.i <= 1000;
        INSERT INTO dbo.orders (id, customer_id, status, total, version, created_at, updated_at)
        SELECT j.id, CONCAT(N'customer-', j.i % 1000 + 1), N'Created', 32.50, 1,
               DATEADD(second, j.i, @At), DATEADD(second, j.i, @At)
        FROM OPENJSON(@Rows) WITH (i int '$.i', id uniqueidentifier '$.id') AS j;
        INSERT INTO dbo.order_lines (order_id, line_no, sku, quantity, unit_price)
        SELECT j.id, 1, CONCAT(N'SKU-', j.i % 50), 1, 12.50
        FROM OPENJSON(@Rows) WITH (i int '$.i', id uniqueidentifier '$.id') AS j
        UNION ALL SELECT j.id, 2, CONCAT(N'SKU-', j.i % 70), 2, 10.00
        FROM OPENJSON(@Rows) WITH (i int '$.i', id uniqueidentifier '$.id') AS j;
        INSERT INTO dbo.order_events (order_id, [sequence], [type], [at], data)
        SELECT j.id, 1, N'Created', DATEADD(second, j.i, @At), N'{"total":32.50}'
        FROM OPENJSON(@Rows) WITH (i int '$.i', id uniqueidentifier '$.id') AS j;
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
