using Microsoft.Data.SqlClient;

namespace OrderService.Load.Shootout;

/// <summary>
/// SQL Server: only a given server (none installs here). The harness does not drop databases there; each run writes
/// under customers of its own, and the audit looks only at those. The engine behind the string is probed first
/// (<see cref="EngineProbe"/>): on Babelfish the service gets Babelfish's timeouts, and the report says "SQL Server
/// protocol on Babelfish". Crash runs go to the engine the harness owns (--sqlserver-engine DIR), never to the given
/// server, which other work may share.
/// </summary>
public sealed class SqlServerTarget : StoreTarget
{
    private readonly string _connectionString;
    private readonly EngineIdentity _identity;
    private readonly OwnedEngine? _owned;
    private readonly string? _ownedConnectionString;
    private readonly string _durability;

    private SqlServerTarget(string connectionString, EngineIdentity identity, OwnedEngine? owned, string? ownedConnectionString, string durability)
    {
        _connectionString = connectionString;
        _identity = identity;
        _owned = owned;
        _ownedConnectionString = ownedConnectionString;
        _durability = durability;
    }

    public static async Task<SqlServerTarget> OpenAsync(string connectionString, ShootoutOptions options)
    {
        var identity = await EngineProbe.SqlServerAsync(connectionString, CancellationToken.None).ConfigureAwait(false);
        Console.WriteLine($"sqlserver: {identity.Label}: {identity.Version}");
        if (options.SqlServerEngineDirectory is not { } directory)
        {
            return new SqlServerTarget(connectionString, identity, null, null, "server default");
        }

        // The owned Babelfish listens on the TDS port start.sh wrote into its cluster's configuration.
        var tdsPort = OwnedBabelfishTdsPort(directory);
        var owned = OwnedEngine.Babelfish(directory, options.EnginesDirectory, tdsPort);
        var ownedConnectionString = new SqlConnectionStringBuilder(connectionString) { DataSource = $"127.0.0.1,{tdsPort}" }.ConnectionString;
        if (tdsPort == TdsPort(connectionString))
        {
            throw new InvalidOperationException($"--sqlserver-engine {directory} is the --sqlserver server itself (port {tdsPort}): crash runs need an engine of their own.");
        }

        var durability = await owned.SettingsAsync(["fsync", "synchronous_commit", "full_page_writes"], CancellationToken.None).ConfigureAwait(false);
        return new SqlServerTarget(connectionString, identity, owned, ownedConnectionString, durability);
    }

    public override StoreKind Store => StoreKind.SqlServer;

    public override bool OwnsProcess => _owned is not null;

    public override IReadOnlyDictionary<string, string> EngineSettings => _identity.Settings;

    public override IEnumerable<string> Notes => IsBabelfish
        ? [
            $"SQL Server rows ran on {_identity.Label}, not on SQL Server: the same client and T-SQL, executed by PostgreSQL. Babelfish ignores NOLOCK and runs READ UNCOMMITTED as READ COMMITTED (as PostgreSQL does), so v3-nolock has variant 1's isolation there and cannot show dirty reads; a commit is durable when PostgreSQL's WAL flush is (synchronous_commit=on). The service ran with Babelfish's timeouts ({_identity.DescribeSettings()}) and, unless --sqlserver names one, Max Pool Size={BabelfishPool}, both applied by the harness.",
            "Babelfish crash rows: kill -9 of the PostgreSQL postmaster and every backend of an engine of the harness's own (never the shared one), a third of the way in, then start.sh DIR (crash recovery); the clients retry with the same Idempotency-Key / If-Match.",
        ]
        : [];

    public override string Description =>
        $"{_identity.Label} ({Host(_connectionString)}; {_identity.Version}); the engine's timeouts applied to the service: {_identity.DescribeSettings()}; " +
        "not reset between runs: each run audits only its own customers" +
        (_owned is null ? "" : $"; crash runs on an engine of their own ({_owned.Directory}, {Host(_ownedConnectionString!)}; its PostgreSQL: {_durability}), kill -9 of its PostgreSQL postmaster and backends, restarted with start.sh");

    public override Task<string> FreshDatabaseAsync(string name, CancellationToken cancellationToken) => Task.FromResult(WithPool(_connectionString, IsBabelfish));

    public override Task<string> FreshDatabaseAsync(string name, Variant variant, bool crash, CancellationToken cancellationToken) =>
        Task.FromResult(WithPool(crash ? _ownedConnectionString ?? throw new InvalidOperationException("A SQL Server crash run needs --sqlserver-engine DIR.") : _connectionString, IsBabelfish));

    private bool IsBabelfish => _identity.Label.Contains("Babelfish", StringComparison.Ordinal);

    public override Task<string>? CrashAndRestartAsync(int workflowsDone) => _owned is null ? null : CrashAsync(_owned, workflowsDone);

    private static async Task<string> CrashAsync(OwnedEngine owned, int workflowsDone)
    {
        var (kill, restart) = await owned.CrashAndRestartAsync(TimeSpan.FromSeconds(1)).ConfigureAwait(false);
        return EngineProbe.Invariant($"kill -9 of Babelfish's PostgreSQL postmaster and its backends after {workflowsDone} workflows (gone in {kill.TotalSeconds:F1} s, 1 s down, start.sh with crash recovery {restart.TotalSeconds:F1} s)");
    }

    /// <summary>
    /// On SQL Server the service's pool must cover the copies and the readers; SqlClient's default maximum is 100 (the
    /// same reason PostgreSQL and MongoDB get 200). On Babelfish it is <see cref="BabelfishPool"/>: every session is a
    /// PostgreSQL backend that parses and plans the T-SQL again, and on 2 cores 100 copies collapsed at 32 sessions or
    /// more (1 wf/s, nine creates in ten 503 after their time-out) while 16 ran 37-41 wf/s with no error
    /// (docs/stores/babelfish.md). A given Max Pool Size is kept.
    /// </summary>
    private static string WithPool(string connectionString, bool babelfish)
    {
        var builder = new SqlConnectionStringBuilder(connectionString);
        if (!connectionString.Contains("Max Pool Size", StringComparison.OrdinalIgnoreCase))
        {
            builder.MaxPoolSize = babelfish ? BabelfishPool : 200;
        }

        return builder.ConnectionString;
    }

    public const int BabelfishPool = 16;

    private static int OwnedBabelfishTdsPort(string directory)
    {
        var ports = Path.Combine(directory, "data", "babelfish-ports.conf");
        var line = File.ReadLines(ports).FirstOrDefault(l => l.TrimStart().StartsWith("babelfishpg_tds.port", StringComparison.Ordinal))
            ?? throw new InvalidOperationException($"{ports} names no babelfishpg_tds.port: is {directory} a Babelfish engine from start.sh?");
        return int.Parse(line.Split('=', 2)[1].Trim().Trim('\''), System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>The port of "Server=host,port" (1433 when the string names none).</summary>
    private static int TdsPort(string connectionString)
    {
        var parts = new SqlConnectionStringBuilder(connectionString).DataSource.Split(',');
        return parts.Length == 2 && int.TryParse(parts[1].Trim(), out var port) ? port : 1433;
    }

    private static string Host(string connectionString) => new SqlConnectionStringBuilder(connectionString).DataSource;
}
