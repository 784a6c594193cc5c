using System.Collections.Concurrent;
using Dapper;
using Microsoft.Data.SqlClient;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;

namespace OrderService.Integration.Tests.Conformance.Stores;

/// <summary>
/// SQL Server from <see cref="TestServers.SqlServerAsync"/>: ORDERS_TEST_SQLSERVER, else a Testcontainers.MsSql
/// container when Docker answers. With neither (the build machine) every conformance test of this store
/// reports as SKIPPED with the reason: never a silent pass. Each host gets a database of its own, which the
/// service itself creates on first use (as it does for an operator) and the fixture drops at the end.
/// </summary>
public abstract class SqlServerStoreFixture : StoreFixture
{
    public const string ServerVariable = TestServers.SqlServerVariable;

    private TestServer? _selection;
    private readonly string _run = Guid.NewGuid().ToString("N")[..8];
    private readonly ConcurrentBag<string> _databases = [];

    protected override string Provider => "SqlServer";

    private string? _server => _selection?.ConnectionString;

    public override string? UnavailableReason => _selection?.SkipReason is { } reason
        ? $"{reason} To run this store's suite: start Docker, or docker compose up -d --wait mssql, then " +
          $"{ServerVariable}=\"Server=127.0.0.1,1433;User Id=sa;Password=...;TrustServerCertificate=true\" (docs/stores/sqlserver.md)."
        : null;

    public override async ValueTask InitializeAsync()
    {
        _selection = await TestServers.SqlServerAsync();
        await base.InitializeAsync();
    }

    protected override async Task<string> CreateDatabaseAsync(string name, CancellationToken cancellationToken)
    {
        var database = DatabaseName(_run, name);
        _databases.Add(database);

        // Created here rather than left to the service (which would create it too, as it does for an
        // operator), so a slow CREATE DATABASE on a busy machine never eats into a test's first request.
        // Babelfish: concurrent CREATE DATABASEs (fixtures start in parallel) may collide on PostgreSQL's
        // catalog ("tuple concurrently updated"); the loser tries again.
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await ExecuteOnMasterAsync("IF DB_ID(@name) IS NULL BEGIN DECLARE @sql nvarchar(300) = N'CREATE DATABASE ' + QUOTENAME(@name); EXEC sp_executesql @sql; END", database, cancellationToken);
                break;
            }
            catch (SqlException e) when (attempt < 5 && e.Message.Contains("tuple concurrently updated", StringComparison.Ordinal))
            {
                await Task.Delay(TimeSpan.FromMilliseconds(200 * attempt), cancellationToken);
            }
        }

        // One pool per switch combination stays open for the class: cap each. On Babelfish every new session
        // compiles each statement shape again (seconds each on this 2-core machine), so fewer, warmer sessions
        // serve a burst (fifty parallel pays) sooner than thirty cold ones.
        // The tests' own reads and plants open this string's pool too. Without NeverBlock, after one open of it failed
        // under load, SqlClient fails every open of that pool at once for seconds (its blocking period), a later test's
        // included: a CI run saw a plant fail in 45 ms with the pool's time-out message. The store sets it alike.
        var maxPool = await EngineAsync() == SqlServerEngine.Babelfish ? 10 : 30;
        return new SqlConnectionStringBuilder(_server) { InitialCatalog = database, MaxPoolSize = maxPool, PoolBlockingPeriod = PoolBlockingPeriod.NeverBlock }.ConnectionString;
    }

    /// <summary>
    /// orders_{run}_{name}, at most 63 characters: Babelfish (PostgreSQL) shortens a longer identifier with a
    /// hash, and DB_ID of the long name then misses the database it created (docs/stores/babelfish.md).
    /// </summary>
    internal static string DatabaseName(string run, string name)
    {
        var database = $"orders_{run}_{new string(name.Select(c => char.IsAsciiLetterOrDigit(c) ? c : '_').ToArray())}";
        if (database.Length <= 63)
        {
            return database;
        }

        var hash = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(database)))[..8];
        return $"{database[..54]}_{hash}";
    }

    protected override string UnreachableConnectionString() => SqlServerDown.ConnectionString();

    public override async Task<StoredOrderRows> ReadStoredRowsAsync(string connectionString, Guid id, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        return await StoredRows.RelationalAsync(connection, id, dbo: "dbo.", sequence: "[sequence]");
    }

    /// <summary>An AFTER INSERT trigger on order_events that THROWs for a new order of a planted customer (CREATE TRIGGER must be a batch of its own).</summary>
    public override async Task<IAsyncDisposable> PlantCreateFailureAsync(string connectionString, string customerPrefix, CancellationToken cancellationToken)
    {
        var prefix = StoredRows.CheckedPrefix(customerPrefix);
        await ExecuteAsync(connectionString, $"""
            CREATE TRIGGER dbo.planted_create_failure ON dbo.order_events AFTER INSERT AS
            BEGIN
                SET NOCOUNT ON;
                IF EXISTS (SELECT 1 FROM inserted i JOIN dbo.orders o ON o.id = i.order_id WHERE i.[sequence] = 1 AND LEFT(o.customer_id, {prefix.Length}) = N'{prefix}')
                    THROW 50001, N'planted create failure', 1;
            END
            """, cancellationToken);
        return new AsyncCleanup(() => ExecuteAsync(connectionString, "DROP TRIGGER dbo.planted_create_failure;", CancellationToken.None));
    }

    private static async Task ExecuteAsync(string connectionString, string sql, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql, commandTimeout: 120, cancellationToken: cancellationToken));
    }

    /// <summary>
    /// Babelfish compiles each statement shape on each new session, which takes seconds (longer on a busy
    /// machine), and it only sees a cancel between requests: the defaults (2 s an attempt, 5 s a call) would
    /// abandon every first call. So on Babelfish the suite runs the service with longer timeouts; on SQL Server with
    /// <see cref="StoreFixture.AnsweringBounds"/>. They are shorter than the 60/75/90 s docs/stores/babelfish.md gives
    /// a service, which must outlast a whole pool of new sessions parsing at full load after a restart: the suite's
    /// pool of 10 and few concurrent calls never meet that, and a fault surfaces sooner.
    /// </summary>
    protected override IEnumerable<KeyValuePair<string, string?>> ExtraSettings() =>
        OnBabelfish ? BabelfishSettings : [];

    /// <summary>On Babelfish, its own longer bounds (<see cref="BabelfishSettings"/>) stand.</summary>
    protected override IEnumerable<KeyValuePair<string, string?>> EngineBounds() =>
        OnBabelfish ? [] : base.EngineBounds();

    private bool OnBabelfish =>
        UnavailableReason is null && EngineAsync().GetAwaiter().GetResult() == SqlServerEngine.Babelfish;

    /// <summary>The timeouts the suite's services on Babelfish run with.</summary>
    public static readonly KeyValuePair<string, string?>[] BabelfishSettings =
    [
        new("Store:CommandTimeoutSeconds", "20"),
        new("Resilience:AttemptTimeoutSeconds", "30"),
        new("Resilience:TotalTimeoutSeconds", "60"),
    ];

    /// <summary>Which TDS engine ORDERS_TEST_SQLSERVER names (asked once): the suite states where Babelfish differs.</summary>
    public Task<SqlServerEngine> EngineAsync() => _engine.Value;

    private readonly Lazy<Task<SqlServerEngine>> _engine;

    protected SqlServerStoreFixture()
    {
        _engine = new(() => SqlServerEngines.DetectAsync(_server!));
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        if (_databases.IsEmpty)
        {
            return;
        }

        SqlConnection.ClearAllPools();

        // Babelfish has no SINGLE_USER; its pools are cleared above, so nothing holds the databases open.
        var drop = await EngineAsync() == SqlServerEngine.Babelfish
            ? "IF DB_ID(@name) IS NOT NULL BEGIN DECLARE @sql nvarchar(400) = N'DROP DATABASE ' + QUOTENAME(@name); EXEC sp_executesql @sql; END"
            : "IF DB_ID(@name) IS NOT NULL BEGIN DECLARE @sql nvarchar(400) = N'ALTER DATABASE ' + QUOTENAME(@name) + " +
              "N' SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE ' + QUOTENAME(@name); EXEC sp_executesql @sql; END";
        foreach (var database in _databases)
        {
            await ExecuteOnMasterAsync(drop, database, CancellationToken.None);
        }
    }

    /// <summary>Runs <paramref name="sql"/> on master with @name = <paramref name="database"/> (names go through QUOTENAME, never into the text).</summary>
    private async Task ExecuteOnMasterAsync(string sql, string database, CancellationToken cancellationToken)
    {
        await using var master = new SqlConnection(new SqlConnectionStringBuilder(_server) { InitialCatalog = "master", Pooling = false }.ConnectionString);
        await master.OpenAsync(cancellationToken);
        await using var command = new SqlCommand(sql, master) { CommandTimeout = 120 };
        command.Parameters.Add(new SqlParameter("@name", System.Data.SqlDbType.NVarChar, 128) { Value = database });
        await command.ExecuteNonQueryAsync(cancellationToken);
    }
}

/// <summary>The TDS engines the SQL Server store runs on.</summary>
public enum SqlServerEngine
{
    SqlServer,

    /// <summary>Babelfish for PostgreSQL (docs/stores/babelfish.md: what differs there).</summary>
    Babelfish,
}

public static class SqlServerEngines
{
    /// <summary>SERVERPROPERTY('babelfish') is 1 on Babelfish and NULL on SQL Server.</summary>
    public static async Task<SqlServerEngine> DetectAsync(string connectionString)
    {
        await using var connection = new SqlConnection(new SqlConnectionStringBuilder(connectionString) { InitialCatalog = "master", Pooling = false }.ConnectionString);
        await connection.OpenAsync();
        await using var command = new SqlCommand("SELECT CAST(SERVERPROPERTY('babelfish') AS int);", connection);
        return await command.ExecuteScalarAsync() is 1 ? SqlServerEngine.Babelfish : SqlServerEngine.SqlServer;
    }
}

/// <summary>A SQL Server that is down: a loopback port nothing listens on.</summary>
public static class SqlServerDown
{
    public static string ConnectionString()
    {
        return $"Server=127.0.0.1,{FreePort.Loopback()};Database=orders;User Id=sa;Password=unused;TrustServerCertificate=true;Connect Timeout=2";
    }
}

public sealed class SqlServerRelationalStore : SqlServerStoreFixture
{
    public override string StoreName => "SQL Server relational";
}
