using System.Globalization;
using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Load.Shootout;

/// <summary>
/// MongoDB: only given servers (no mongod installs here). A database per run, dropped first. Variant 5 needs a mongod
/// started with <c>--journalCommitInterval 2</c> (a server setting): it runs on <c>--mongodb-group-commit</c>, and the
/// target checks that server's setting before the run rather than report a v5 row measured on the wrong server.
/// FerretDB (probed first, <see cref="EngineProbe"/>) has no journalCommitInterval: every write is a commit of its
/// PostgreSQL, so variant 5 there is PostgreSQL's group-commit window (commit_delay 2 ms, SHOOTOUT.md's analogue), set
/// on the engine the harness owns (--mongodb-engine DIR), which also takes the crash runs: the given server, which
/// other work may share, is never reconfigured or killed.
/// </summary>
public sealed class MongoTarget : StoreTarget
{
    /// <summary>What <see cref="Variant.Server"/> says for variant 5.</summary>
    public const string GroupCommitServer = "journalCommitInterval=2";

    private const int GroupCommitIntervalMilliseconds = 2;

    /// <summary>FerretDB's variant 5: PostgreSQL's group-commit window, the analogue SHOOTOUT.md names for the interval.</summary>
    private static readonly Dictionary<string, string?> FerretDbGroupCommit = new() { ["commit_delay"] = "2000", ["commit_siblings"] = "5" };

    private static readonly Dictionary<string, string?> FerretDbNoGroupCommit = new() { ["commit_delay"] = null, ["commit_siblings"] = null };

    private readonly string _connectionString;
    private readonly string? _groupCommitConnectionString;
    private readonly EngineIdentity _identity;
    private readonly OwnedEngine? _owned;
    private readonly string? _ownedConnectionString;
    private readonly string _durability;

    private MongoTarget(string connectionString, string? groupCommitConnectionString, EngineIdentity identity, OwnedEngine? owned, string? ownedConnectionString, string durability)
    {
        _connectionString = connectionString;
        _groupCommitConnectionString = groupCommitConnectionString;
        _identity = identity;
        _owned = owned;
        _ownedConnectionString = ownedConnectionString;
        _durability = durability;
    }

    public static async Task<MongoTarget> OpenAsync(string connectionString, ShootoutOptions options)
    {
        var identity = await EngineProbe.MongoAsync(connectionString, CancellationToken.None).ConfigureAwait(false);
        Console.WriteLine($"mongodb: {identity.Label}: {identity.Version}");
        if (options.MongoEngineDirectory is not { } directory)
        {
            return new MongoTarget(connectionString, options.MongoGroupCommitConnectionString, identity, null, null, "");
        }

        var owned = OwnedEngine.FerretDb(directory, options.EnginesDirectory);
        var port = File.ReadAllText(Path.Combine(directory, "run", "ferretdb.port")).Trim();
        var ownedConnectionString = $"mongodb://127.0.0.1:{port}/?directConnection=true";
        if (new MongoUrl(connectionString).Server.Port.ToString(CultureInfo.InvariantCulture) == port)
        {
            throw new InvalidOperationException($"--mongodb-engine {directory} is the --mongodb server itself (port {port}): crash runs need an engine of their own.");
        }

        var durability = await owned.SettingsAsync(["fsync", "synchronous_commit", "full_page_writes"], CancellationToken.None).ConfigureAwait(false);
        return new MongoTarget(connectionString, options.MongoGroupCommitConnectionString, identity, owned, ownedConnectionString, durability);
    }

    private bool IsFerretDb => _identity.Label.Contains("FerretDB", StringComparison.Ordinal);

    public override StoreKind Store => StoreKind.MongoDb;

    public override bool OwnsProcess => _owned is not null;

    public override IReadOnlyDictionary<string, string> EngineSettings => _identity.Settings;

    public override IEnumerable<string> Notes => IsFerretDb
        ? [
            $"MongoDB rows ran on {_identity.Label}, not on mongod: the same driver and wire protocol, each command executed as SQL by PostgreSQL with the DocumentDB extension. It has no journal of its own: a write is acknowledged after its PostgreSQL transaction commits, and the engines here run synchronous_commit=on, so w:1 j:false (baseline), j:true (v4) and majority (a standalone: the majority is that node) should wait for the same WAL flush; the note on WiredTiger above does not apply. Variant 5's journalCommitInterval has no FerretDB counterpart: its row sets PostgreSQL's group-commit window (commit_delay=2000 µs, commit_siblings=5) on an engine of the harness's own. The service ran with the timeouts applied for FerretDB ({_identity.DescribeSettings()}).",
            "FerretDB crash rows: kill -9 of its PostgreSQL postmaster and every backend (FerretDB itself keeps running and reconnects), on an engine of the harness's own, a third of the way in, then start.sh DIR (crash recovery).",
        ]
        : [];

    public override string Description =>
        $"{_identity.Label} ({Host(_connectionString)}; {_identity.Version}); the engine's timeouts applied to the service: {_identity.DescribeSettings()}; a fresh database per run; " +
        (IsFerretDb
            ? $"variant 5 on {(_owned is null ? "no engine (pass --mongodb-engine DIR)" : $"the engine of its own at {Host(_ownedConnectionString!)} with its PostgreSQL at commit_delay=2000 µs, commit_siblings=5")}"
            : $"variant 5 on {(_groupCommitConnectionString is null ? "no server (pass --mongodb-group-commit)" : Host(_groupCommitConnectionString))}, a mongod with --journalCommitInterval 2") +
        (_owned is null ? "" : $"; crash runs on the engine of its own ({_owned.Directory}, {Host(_ownedConnectionString!)}; its PostgreSQL: {_durability}), kill -9 of its PostgreSQL postmaster and backends, restarted with start.sh");

    public override Task<string> FreshDatabaseAsync(string name, CancellationToken cancellationToken) =>
        FreshAsync(_connectionString, name, cancellationToken);

    public override Task<string> FreshDatabaseAsync(string name, Variant variant, CancellationToken cancellationToken) =>
        FreshDatabaseAsync(name, variant, crash: false, cancellationToken);

    public override async Task<string> FreshDatabaseAsync(string name, Variant variant, bool crash, CancellationToken cancellationToken)
    {
        if (IsFerretDb && (crash || variant.Server == GroupCommitServer))
        {
            var owned = _owned ?? throw new InvalidOperationException(
                $"{variant.Name}{(crash ? " (crash)" : "")} on FerretDB needs an engine of its own: start one with engines/ferretdb/start.sh DIR (FERRETDB_PORT/FERRETDB_PG_PORT of its own) and pass --mongodb-engine DIR.");
            var groupCommit = variant.Server == GroupCommitServer;
            await owned.ConfigureAsync(groupCommit ? FerretDbGroupCommit : FerretDbNoGroupCommit, cancellationToken).ConfigureAwait(false);
            return await FreshAsync(_ownedConnectionString!, name, cancellationToken).ConfigureAwait(false);
        }

        if (crash)
        {
            throw new InvalidOperationException("A MongoDB crash run needs a FerretDB engine of its own (--mongodb-engine DIR).");
        }

        if (variant.Server != GroupCommitServer)
        {
            return await FreshAsync(_connectionString, name, cancellationToken).ConfigureAwait(false);
        }

        var server = _groupCommitConnectionString ?? throw new InvalidOperationException(
            "v5-group-commit needs a mongod started with --journalCommitInterval 2: pass --mongodb-group-commit \"mongodb://127.0.0.1:27018/?directConnection=true\" " +
            "(docker compose up -d --wait mongo-group-commit).");
        var interval = await JournalCommitIntervalAsync(server, cancellationToken).ConfigureAwait(false);
        if (interval != GroupCommitIntervalMilliseconds)
        {
            throw new InvalidOperationException(string.Create(CultureInfo.InvariantCulture,
                $"The --mongodb-group-commit server runs journalCommitInterval={interval} ms, not {GroupCommitIntervalMilliseconds}: start it with --journalCommitInterval {GroupCommitIntervalMilliseconds}."));
        }

        return await FreshAsync(server, name, cancellationToken).ConfigureAwait(false);
    }

    public override Task<string>? CrashAndRestartAsync(int workflowsDone) => _owned is null ? null : CrashAsync(_owned, workflowsDone);

    public override async ValueTask DisposeAsync()
    {
        // The owned engine goes back to its own settings after the run (variant 5 set a server-wide window).
        if (_owned is not null)
        {
            await _owned.ConfigureAsync(FerretDbNoGroupCommit, CancellationToken.None).ConfigureAwait(false);
        }

        await base.DisposeAsync().ConfigureAwait(false);
    }

    private static async Task<string> CrashAsync(OwnedEngine owned, int workflowsDone)
    {
        var (kill, restart) = await owned.CrashAndRestartAsync(TimeSpan.FromSeconds(1)).ConfigureAwait(false);
        return EngineProbe.Invariant($"kill -9 of FerretDB's PostgreSQL (DocumentDB) postmaster and its backends after {workflowsDone} workflows, FerretDB left running (gone in {kill.TotalSeconds:F1} s, 1 s down, start.sh with crash recovery {restart.TotalSeconds:F1} s)");
    }

    private static async Task<string> FreshAsync(string server, string name, CancellationToken cancellationToken)
    {
        var builder = new MongoUrlBuilder(server) { DatabaseName = "load_" + new string(name.Where(char.IsLetterOrDigit).ToArray()).ToLowerInvariant() };

        // The service's pool must cover the copies and the readers; the driver's default maximum is 100.
        builder.MaxConnectionPoolSize = Math.Max(builder.MaxConnectionPoolSize, 200);
        using (var client = new MongoClient(server))
        {
            await client.DropDatabaseAsync(builder.DatabaseName, cancellationToken).ConfigureAwait(false);
        }

        return builder.ToString();
    }

    private static async Task<int> JournalCommitIntervalAsync(string server, CancellationToken cancellationToken)
    {
        using var client = new MongoClient(server);
        var reply = await client.GetDatabase("admin")
            .RunCommandAsync<BsonDocument>(new BsonDocument { { "getParameter", 1 }, { "journalCommitInterval", 1 } }, cancellationToken: cancellationToken)
            .ConfigureAwait(false);
        return reply["journalCommitInterval"].ToInt32();
    }

    private static string Host(string uri) => string.Join(",", new MongoUrl(uri).Servers.Select(s => s.ToString()));
}
