namespace OrderService.Load.Shootout;

/// <summary>Everything one shoot-out needs to know, from the command line or from the CI test.</summary>
public sealed record ShootoutOptions
{
    public required IReadOnlyList<StoreKind> Stores { get; init; }

    /// <summary>Variant selectors: "quick" (<see cref="QuickSet"/>), "all", a name ("v1-shared-uow"), "layout/name" or a full key.</summary>
    public IReadOnlyList<string> Variants { get; init; } = [QuickSet.Selector];

    /// <summary>"relational", "document" or "all".</summary>
    public IReadOnlyList<string> Layouts { get; init; } = ["all"];

    public int Workflows { get; init; } = 1000;

    public int Concurrency { get; init; } = 100;

    /// <summary>
    /// The warm-up's cap in workflows: the adaptive warm-up stops at steady state or here, whichever comes first; with
    /// <see cref="WarmupFixed"/> it runs exactly this many (0: no warm-up).
    /// </summary>
    public int Warmup { get; init; } = 2000;

    /// <summary>Run exactly <see cref="Warmup"/> workflows before each run instead of stopping at steady state.</summary>
    public bool WarmupFixed { get; init; }

    /// <summary>
    /// How many service processes serve each run, on one database (each value a row of its own, e.g. [1, 2]). The
    /// driver sends a workflow's steps to different processes, so every workflow crosses replicas.
    /// </summary>
    public IReadOnlyList<int> Replicas { get; init; } = [1];

    public double AbortRate { get; init; }

    public bool Crash { get; init; }

    /// <summary>Which variants get a crash run, per store, when <see cref="Crash"/> is on.</summary>
    public IReadOnlyList<string> CrashVariants { get; init; } = DefaultCrashVariants;

    /// <summary>
    /// PostgreSQL failover rows, "sync" and/or "async": the durable variant 1 on a pg_auto_failover formation the harness
    /// starts per row, the primary killed a third of the way in, the secondary promoted by the monitor.
    /// </summary>
    public IReadOnlyList<string> Failover { get; init; } = [];

    /// <summary>
    /// Seconds a crash run keeps starting workflows after the restart (0: no limit). An engine that comes back slowly
    /// (Babelfish on 2 cores: every new session parses its T-SQL again) would otherwise hold the run for an hour; the
    /// audit needs only the workflows that were acknowledged, so the row stops starting new ones, lets the running ones
    /// finish, and audits them, and its crash note says where it stopped.
    /// </summary>
    public int CrashWindowSeconds { get; init; } = 300;

    /// <summary>
    /// The durable variant 1 and the traded one of every relational store (SQL Server's on an engine of its own), and
    /// MongoDB's journaled variant 4 (on FerretDB: kill -9 of its PostgreSQL).
    /// </summary>
    public static readonly IReadOnlyList<string> DefaultCrashVariants = ["relational/v1-shared-uow", "relational/durability-traded", "mongodb/document/v4-journaled"];

    public required string OutputDirectory { get; init; }

    public string? SqlServerConnectionString { get; init; }

    public string? PostgresConnectionString { get; init; }

    /// <summary>A MongoDB replica-set URI (--mongodb): adds MongoDB to the run.</summary>
    public string? MongoConnectionString { get; init; }

    /// <summary>A Citus coordinator's connection string (--citus): adds Citus to the run.</summary>
    public string? CitusConnectionString { get; init; }

    /// <summary>The folder of ../shared/engines/citus/start.sh DIR (--citus-engine): its binaries start the joining worker.</summary>
    public string? CitusEngineDirectory { get; init; }

    /// <summary>The port of a worker that joins during a Citus row (--citus-scale-out): adds the scale-out row.</summary>
    public int? CitusScaleOutPort { get; init; }

    /// <summary>A mongod started with --journalCommitInterval 2 (--mongodb-group-commit), for variant 5.</summary>
    public string? MongoGroupCommitConnectionString { get; init; }

    /// <summary>A Babelfish the harness owns (engines/babelfish/start.sh DIR, ports of its own): SQL Server's crash runs.</summary>
    public string? SqlServerEngineDirectory { get; init; }

    /// <summary>A FerretDB the harness owns (engines/ferretdb/start.sh DIR, ports of its own): FerretDB's variant 5 and MongoDB's crash runs.</summary>
    public string? MongoEngineDirectory { get; init; }

    /// <summary>The folder with babelfish/start.sh and ferretdb/start.sh (restarts after a crash).</summary>
    public string EnginesDirectory { get; init; } = DefaultEnginesDirectory();

    /// <summary>../shared/engines beside the repository (or beside the folder of its worktrees).</summary>
    public static string DefaultEnginesDirectory()
    {
        var root = FindRepositoryRoot();
        var candidates = new[] { Path.Combine(root, "..", "shared", "engines"), Path.Combine(root, "..", "..", "shared", "engines") };
        return Path.GetFullPath(candidates.FirstOrDefault(Directory.Exists) ?? candidates[0]);
    }

    public bool Pgbench { get; init; } = true;

    /// <summary>
    /// Report each PostgreSQL row's statements (<see cref="DatabaseStatements"/>): pg_stat_statements, loaded into the
    /// throwaway cluster (it costs the server a little on every statement, so it is off by default).
    /// </summary>
    public bool PgStatements { get; init; }

    /// <summary>Drive the same workflow through the store port too (the raw limit and the HTTP/raw ratio).</summary>
    public bool Raw { get; init; } = true;

    /// <summary>
    /// Run every selected variant twice, the second time exporting OpenTelemetry to a local OTLP sink, so the
    /// report gives telemetry's cost as a ratio measured in one run.
    /// </summary>
    public bool Otlp { get; init; }

    /// <summary>A published OrderService.dll to use instead of publishing the repository's source.</summary>
    public string? ServiceDll { get; init; }

    /// <summary>
    /// A commit of this repository to run beside every selected variant as the "before" service (git archive, published
    /// like the working tree), so that a CPU-per-workflow ratio against it comes from one run.
    /// </summary>
    public string? BaselineCommit { get; init; }

    /// <summary>An already published OrderService.dll of <see cref="BaselineCommit"/> (repeated runs publish it once).</summary>
    public string? BaselineServiceDll { get; init; }

    /// <summary>
    /// Extra environment for the service under test only, never for the baseline build (--service-env KEY=VALUE): an
    /// A/B of a runtime knob (DOTNET_*) in one run, with the same build as the baseline.
    /// </summary>
    public IReadOnlyDictionary<string, string> ServiceEnvironment { get; init; } = new Dictionary<string, string>();

    /// <summary>Run each variant's baseline row before its twin instead of after it (--baseline-first): repeated A/B runs alternate the order.</summary>
    public bool BaselineFirst { get; init; }

    /// <summary>--artifacts-path for the service's dotnet publish (build isolation when several builds share a tree).</summary>
    public string? ServiceArtifactsPath { get; init; }

    /// <summary>How long the dirty-read probe holds a pay's write uncommitted, so readers can catch it.</summary>
    public int HeldWriteMilliseconds { get; init; } = 40;

    public string RepositoryRoot { get; init; } = FindRepositoryRoot();

    public string Command { get; init; } = "";

    public IReadOnlyList<string> Notes { get; init; } = [];

    public int ReaderCopies => Math.Max(2, Concurrency / 10);

    public IEnumerable<Variant> SelectedVariants(StoreKind store) =>
        VariantCatalog.For(store).Where(v => Layouts.Any(l => l.Equals("all", StringComparison.OrdinalIgnoreCase) || l.Equals(v.Layout, StringComparison.OrdinalIgnoreCase))
            && (Variants.Any(v.Matches) || (Variants.Any(QuickSet.IsSelector) && QuickSet.Contains(v))));

    public IEnumerable<Variant> SelectedCrashVariants(StoreKind store) =>
        Crash ? VariantCatalog.For(store).Where(v => CrashVariants.Any(v.Matches)) : [];

    public static string FindRepositoryRoot()
    {
        foreach (var start in new[] { Environment.CurrentDirectory, AppContext.BaseDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "OrderService.sln")))
                {
                    return directory.FullName;
                }
            }
        }

        return Environment.CurrentDirectory;
    }
}
