using System.Data.Common;
using System.Runtime.CompilerServices;
using Microsoft.Data.Sqlite;
using OrderService.Data.Relational;
using SQLitePCL;

namespace OrderService.Data.Sqlite;

public sealed class SqliteDatabase : IAsyncDisposable
{
    public const string ProviderName = "sqlite";

    private readonly string _connectionString;
    private readonly string _connectionPragmas;
    private readonly SqliteGroupCommitWriter? _groupWriter;

    // The pragmas each native (pooled) connection last ran: they are per connection and outlive a pooled Close,
    // so only a new native connection needs them (a command per open otherwise). Shared by every instance and
    // keyed by the text, because the driver's pool is keyed by the connection string alone: two databases on one
    // string with other settings (synchronous, busy_timeout) must not inherit each other's.
    private static readonly ConditionalWeakTable<sqlite3, string> Configured = [];

    public SqliteDatabase(string connectionString, StoreOptions options, SqliteStoreOptions sqlite)
    {
        ReadsUncommitted = options.ReadIsolation == ReadIsolation.ReadUncommitted;
        var builder = new SqliteConnectionStringBuilder(connectionString)
        {
            Pooling = true,
            DefaultTimeout = options.CommandTimeoutSeconds,

            // Shared cache is what lets a reader see another connection's uncommitted write (the NOLOCK risk).
            Cache = ReadsUncommitted ? SqliteCacheMode.Shared : SqliteCacheMode.Private,
        };
        _connectionString = builder.ToString();
        DataSourcePath = builder.DataSource;
        _connectionPragmas =
            $"PRAGMA synchronous={sqlite.Synchronous.ToString().ToUpperInvariant()}; " +
            $"PRAGMA busy_timeout={sqlite.BusyTimeoutMilliseconds}; PRAGMA foreign_keys=ON;";
        _groupWriter = sqlite.GroupCommit
            ? new SqliteGroupCommitWriter(() => Open("group-writer"), sqlite.GroupCommitMaxBatch)
            : null;
    }

    /// <summary>The file (or :memory: name) behind the connection string.</summary>
    public string DataSourcePath { get; }

    public bool UsesGroupCommit => _groupWriter is not null;

    public bool ReadsUncommitted { get; }

    /// <summary>Creates the database's folder and switches the file to WAL, once, before any other use.</summary>
    public void PrepareFile()
    {
        var folder = Path.GetDirectoryName(Path.GetFullPath(DataSourcePath));
        if (!string.IsNullOrEmpty(folder) && DataSourcePath != ":memory:")
        {
            Directory.CreateDirectory(folder);
        }

        using var connection = Open("schema");

        // WAL lets readers run beside the single writer; it is stored in the file, so setting it once is enough.
        Execute(connection, "PRAGMA journal_mode=WAL;");
    }

    /// <summary>The rows of those of <paramref name="tables"/> that exist in the file.</summary>
    public async Task<IReadOnlyList<TableRows>> CountRowsAsync(IEnumerable<string> tables,
        CancellationToken cancellationToken)
    {
        await using var connection = Open("schema");
        return await LayoutTables.CountRowsAsync(connection, tables,
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = @name", cancellationToken);
    }

    /// <summary>A pooled read connection; with ReadUncommitted it sees uncommitted rows.</summary>
    public SqliteConnection OpenReader()
    {
        var connection = Open("read");
        if (ReadsUncommitted)
        {
            Execute(connection, "PRAGMA read_uncommitted=1;");
        }

        return connection;
    }

    /// <summary>
    /// Runs <paramref name="work"/> in a write transaction until committed; a throw undoes only its own.
    /// </summary>
    public Task<T> WriteAsync<T>(Func<SqliteConnection, T> work, CancellationToken cancellationToken)
    {
        if (_groupWriter is not null)
        {
            return _groupWriter.ExecuteAsync(work, cancellationToken);
        }

        cancellationToken.ThrowIfCancellationRequested();
        using var connection = Open("write");

        // Plain SQL rather than BeginTransaction(): the work sees the same bare connection as under group commit.
        Execute(connection, "BEGIN IMMEDIATE;");
        T result;
        try
        {
            result = work(connection);
            Execute(connection, "COMMIT;");
        }
        catch
        {
            TryRollback(connection);
            throw;
        }

        return Task.FromResult(result);
    }

    internal static void Execute(DbConnection connection, string sql)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    internal static void TryRollback(DbConnection connection)
    {
        try
        {
            Execute(connection, "ROLLBACK;");
        }
        catch (SqliteException)
        {
            // SQLite already rolled back (a failed COMMIT, or an error that ends the transaction).
        }
    }

    public ValueTask DisposeAsync()
    {
        var pending = _groupWriter?.DisposeAsync() ?? ValueTask.CompletedTask;
        SqliteConnection.ClearAllPools();
        return pending;
    }

    private SqliteConnection Open(string purpose)
    {
        var connection = new SqliteConnection(_connectionString);
        connection.Open();
        var handle = connection.Handle;
        if (handle is null || !Configured.TryGetValue(handle, out var ran)
            || !string.Equals(ran, _connectionPragmas, StringComparison.Ordinal))
        {
            Execute(connection, _connectionPragmas);
            if (handle is not null)
            {
                Configured.AddOrUpdate(handle, _connectionPragmas);
            }
        }

        StoreTelemetry.ConnectionOpened(ProviderName, purpose);
        return connection;
    }
}
