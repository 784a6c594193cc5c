using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Npgsql;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

public sealed class PostgresDatabase : IAsyncDisposable, IConnectionPool
{
    public const string ProviderName = "postgresql";

    // 100 concurrent requests each hold one connection for a round trip; headroom avoids pool waits.
    private const int MinimumPoolSize = 128;

    private readonly MissingDatabase _missing;
    private readonly StoreOptions _options;
    private readonly PostgreSqlStoreOptions _postgres;
    private readonly bool _readsOnly;
    private PostgresGroupCommit? _groupCommit;

    /// <param name="readsOnly">The standby's pool: nothing writes through it, so no group-commit writer.</param>
    public PostgresDatabase(NpgsqlDataSource dataSource, string connectionString, StoreOptions options,
        PostgreSqlStoreOptions postgres, ILogger? logger = null, bool readsOnly = false)
    {
        var tuned = new NpgsqlConnectionStringBuilder();
        Tune(tuned, connectionString, options, postgres);
        DataSource = dataSource;
        ConnectionString = tuned.ConnectionString;
        _missing = new MissingDatabase(ConnectionString, logger ?? NullLogger.Instance);
        _options = options;
        _postgres = postgres;
        _readsOnly = readsOnly;
    }

    public static void Tune(NpgsqlConnectionStringBuilder builder, string connectionString, StoreOptions options,
        PostgreSqlStoreOptions postgres)
    {
        builder.ConnectionString = connectionString;
        if (builder.MaxPoolSize < MinimumPoolSize
            && !connectionString.Contains("Maximum Pool Size", StringComparison.OrdinalIgnoreCase)
            && !connectionString.Contains("Max Pool Size", StringComparison.OrdinalIgnoreCase))
        {
            builder.MaxPoolSize = MinimumPoolSize;
        }

        if (builder.MaxAutoPrepare == 0)
        {
            builder.MaxAutoPrepare = 64;
            builder.AutoPrepareMinUsages = 2;
        }

        // The stores change no session state, so a returned connection needs none of Npgsql's reset statements.
        builder.NoResetOnClose = true;

        builder.CommandTimeout = options.CommandTimeoutSeconds;
        var session = SessionSettings(postgres, builder.Options);
        builder.Options = string.IsNullOrWhiteSpace(builder.Options) ? session : builder.Options + " " + session;
    }

    /// <summary>The group commit of this pool's writes, started on first use; null when GroupCommit is off.</summary>
    public PostgresGroupCommit? GroupCommit
    {
        get
        {
            // On Citus a group of many orders is a transaction over many shards.
            if (!_postgres.GroupCommit || _readsOnly || Distribution == PostgreSqlDistribution.Citus)
            {
                return null;
            }

            return LazyInitializer.EnsureInitialized(ref _groupCommit, () =>
                new PostgresGroupCommit(this, _postgres.GroupCommitWriters, _postgres.GroupCommitMaxBatch,
                    _options.CommandTimeoutSeconds));
        }
    }

    public NpgsqlDataSource DataSource { get; }

    public PostgreSqlDistribution Distribution => _postgres.Distribution;

    /// <summary>The effective connection string, session settings included.</summary>
    public string ConnectionString { get; }

    /// <summary>
    /// Opens a connection; a failure the server did not report is a <see cref="PostgresConnectFailure"/>.
    /// </summary>
    public async ValueTask<NpgsqlConnection> OpenAsync(string purpose, CancellationToken cancellationToken)
    {
        NpgsqlConnection connection;
        try
        {
            connection = await DataSource.OpenConnectionAsync(cancellationToken);
        }
        catch (NpgsqlException notOpened) when (notOpened is not PostgresException)
        {
            throw new PostgresConnectFailure(notOpened);
        }

        StoreTelemetry.ConnectionOpened(ProviderName, purpose);
        return connection;
    }

    public async ValueTask<NpgsqlConnection> OpenForSchemaAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await OpenAsync("schema", cancellationToken);
        }
        catch (Exception missing) when (MissingDatabase.IsMissing(missing))
        {
            await _missing.CreateOrExplainAsync(cancellationToken);
            return await OpenAsync("schema", cancellationToken);
        }
    }

    /// <summary>The rows of those of <paramref name="tables"/> that exist in the connection's schema.</summary>
    public async Task<IReadOnlyList<TableRows>> CountRowsAsync(IEnumerable<string> tables,
        CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync("schema", cancellationToken);
        return await LayoutTables.CountRowsAsync(connection, tables,
            "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = @name",
                cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        if (_groupCommit is not null)
        {
            await _groupCommit.DisposeAsync();
        }

        // The pool closes with the store, after its last group.
        await DataSource.DisposeAsync();
    }

    /// <summary>Closes the idle connections now; busy ones close when they come back.</summary>
    public void DropIdleConnections() => DataSource.Clear();

    /// <summary>Clears the pool after a driver fault, before that connection returns: Npgsql cannot doom one.</summary>
    public void DiscardAfter(Exception fault)
    {
        if (StoreErrors.IsDriverFault(fault, PostgresTransientFaults.Instance))
        {
            DataSource.Clear();
        }
    }

    /// <summary>The server settings this configuration asks for, as `-c name=value` startup options.</summary>
    public static string SessionSettings(PostgreSqlStoreOptions options, string? givenOptions = null)
    {
        var settings = new List<string>
        {
            $"-c synchronous_commit={options.SynchronousCommit.ToString().ToLowerInvariant()}",
        };

        // Every statement finds its rows through an index whatever the values, so one generic plan serves them all.
        if (options.Distribution != PostgreSqlDistribution.Citus
            && givenOptions?.Contains("plan_cache_mode", StringComparison.OrdinalIgnoreCase) != true)
        {
            settings.Add("-c plan_cache_mode=force_generic_plan");
        }

        if (options.CommitDelayMicroseconds > 0)
        {
            settings.Add($"-c commit_delay={options.CommitDelayMicroseconds}");
        }

        if (options.CommitSiblings > 0)
        {
            settings.Add($"-c commit_siblings={options.CommitSiblings}");
        }

        return string.Join(' ', settings);
    }
}
