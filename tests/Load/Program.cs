using System.CommandLine;
using System.Globalization;
using OrderService.Load.Scenarios;
using OrderService.Load.Shootout;

// The shoot-out's command line, and a load test of a running service (--target). Examples:
//   dotnet run -c Release --project tests/Load -- --target http://127.0.0.1:5000 --workflows 1000 --concurrency 100 --out artifacts/load
//   dotnet run -c Release --project tests/Load -- --stores sqlite,postgres                  (the quick set, minutes)
//   dotnet run -c Release --project tests/Load -- --stores sqlite,postgres --variants all --workflows 1000 --concurrency 100
//   dotnet run -c Release --project tests/Load -- --stores postgres --replicas 1,2
//   ... --stores postgres,citus --citus "Host=127.0.0.1;Port=5450;Database=orders;Username=orders"
//   ... --stores mongodb --mongodb "mongodb://127.0.0.1:27017/?directConnection=true" --mongodb-group-commit "mongodb://127.0.0.1:27018/?directConnection=true"
// First, before anything reads the console's size: NBomber's live table must not deadlock its own log (NBomberConsole.cs).
NBomberConsole.Install();

var stores = new Option<string>("--stores") { Description = "Stores, comma-separated: sqlite, postgres, sqlserver, mongodb.", DefaultValueFactory = _ => "sqlite,postgres" };
var variants = new Option<string>("--variants") { Description = "Variants: quick (each store's defaults, the seed's baseline, one durability-traded row), all, or names (baseline, v1-shared-uow, v1-shared-session, v3-nolock, v4-journaled, v5-group-commit, durability-traded, majority, straightforward), or layout/name.", DefaultValueFactory = _ => QuickSet.Selector };
var layouts = new Option<string>("--layouts") { Description = "Layouts: all, relational, document.", DefaultValueFactory = _ => "all" };
var workflows = new Option<int>("--workflows", "-w") { Description = "Workflows per run (1000 and 10000 are the reference sizes).", DefaultValueFactory = _ => 1000 };
var concurrency = new Option<int>("--concurrency", "-c") { Description = "Concurrent copies.", DefaultValueFactory = _ => 100 };
var warmup = new Option<int>("--warmup") { Description = "The warm-up's cap in workflows before each measured run: it stops earlier at steady state (two consecutive windows within 5% wf/s); 0: none.", DefaultValueFactory = _ => 2000 };
var warmupFixed = new Option<bool>("--warmup-fixed") { Description = "Warm up with exactly --warmup workflows instead of stopping at steady state." };
var replicas = new Option<string>("--replicas") { Description = "Service processes on one database, e.g. 2, or 1,2 for a row per count; each workflow's parts are spread over them.", DefaultValueFactory = _ => "1" };
var abortRate = new Option<double>("--abort-rate")
{
    Description = "Fraction of orders whose pay the harness first holds uncommitted, then rolls back, while readers "
        + "probe for dirty reads.",
    DefaultValueFactory = _ => 0,
};
var crash = new Option<bool>("--crash") { Description = "Add crash runs: kill -9 the database (PostgreSQL) or the service (SQLite) mid-run, restart, audit." };
var crashVariants = new Option<string>("--crash-variants") { Description = "Variants that get a crash run.", DefaultValueFactory = _ => string.Join(',', ShootoutOptions.DefaultCrashVariants) };
var failover = new Option<string>("--failover") { Description = "PostgreSQL failover rows: sync, async or sync,async. Each starts a pg_auto_failover formation (monitor, primary, secondary) of its own, runs relational/v1-shared-uow on the multi-host connection string, kills -9 the primary a third of the way in, lets the monitor promote the secondary, and audits the new primary. Needs pg_autoctl (scripts/test.sh installs it as root).", DefaultValueFactory = _ => "" };
var crashWindow = new Option<int>("--crash-window") { Description = "Seconds a crash run keeps starting workflows after the restart; then it lets the running ones finish and audits what was acknowledged (0: all --workflows, however slow the engine came back).", DefaultValueFactory = _ => 300 };
var output = new Option<string>("--out")
{
    Description = "Output folder for report.md, report.json, chart.svg, histograms/ and logs/ (a new folder inside it "
        + "when it holds files already; --target: NBomber's reports in a new folder nbomber-<UTC time> inside it).",
    DefaultValueFactory = _ =>
        Path.Combine("artifacts", "shootout", DateTime.Now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)),
};
var sqlServer = new Option<string?>("--sqlserver") { Description = "A SQL Server connection string: adds SQL Server to the run." };
var mongodb = new Option<string?>("--mongodb") { Description = "A MongoDB replica-set URI (e.g. mongodb://127.0.0.1:27017/?directConnection=true): adds MongoDB to the run." };
var citus = new Option<string?>("--citus") { Description = "A Citus coordinator's connection string (the last line of ../shared/engines/citus/start.sh DIR): adds Citus rows, the PostgreSQL store with Store:PostgreSql:Distribution=Citus, and pgbench on the coordinator." };
var citusEngine = new Option<string?>("--citus-engine") { Description = "DIR of the --citus engine (../shared/engines/citus/start.sh DIR): --citus-scale-out starts the joining worker from its binaries." };
var citusScaleOut = new Option<int?>("--citus-scale-out") { Description = "A free port: adds a Citus row during which a worker on this port starts, joins (citus_add_node) and gets shards (citus_rebalance_start); the report gives wf/s before, during and after. Needs --citus-engine." };
var mongodbGroupCommit = new Option<string?>("--mongodb-group-commit") { Description = "A mongod started with --journalCommitInterval 2, for MongoDB's variant 5 (docker compose: port 27018)." };
var sqlServerEngine = new Option<string?>("--sqlserver-engine") { Description = "DIR of a Babelfish of the harness's own (engines/babelfish/start.sh DIR, other ports): SQL Server's --crash runs kill -9 it and restart it. Never the --sqlserver server." };
var mongodbEngine = new Option<string?>("--mongodb-engine") { Description = "DIR of a FerretDB of the harness's own (engines/ferretdb/start.sh DIR, other ports): FerretDB's variant 5 (commit_delay on its PostgreSQL) and MongoDB's --crash runs. Never the --mongodb server." };
var engines = new Option<string?>("--engines") { Description = "The folder with babelfish/start.sh and ferretdb/start.sh (default: ../shared/engines beside the repository)." };
var postgres = new Option<string?>("--postgres") { Description = "A PostgreSQL connection string (a role that may create databases) instead of a throwaway cluster." };
var pgbench = new Option<bool>("--pgbench") { Description = "Run the pgbench reference when PostgreSQL is in the run.", DefaultValueFactory = _ => true };
var pgStatements = new Option<bool>("--pg-statements") { Description = "Load pg_stat_statements into the throwaway PostgreSQL cluster (or read it on --postgres) and report each row's statements: calls and execution time per workflow." };
var raw = new Option<bool>("--raw") { Description = "Run the raw store-port baseline beside every variant.", DefaultValueFactory = _ => true };
var otlp = new Option<bool>("--otlp") { Description = "Run every variant twice: as configured, then exporting OpenTelemetry to a local OTLP sink (the ratio is telemetry's cost)." };
var serviceDll = new Option<string?>("--service-dll") { Description = "Use this published OrderService.dll instead of publishing src/OrderService." };
var serviceArtifacts = new Option<string?>("--service-artifacts-path") { Description = "--artifacts-path for publishing the service (build isolation)." };
var baselineCommit = new Option<string?>("--baseline-commit") { Description = "Also run every variant against the service built from this commit (git archive + publish), right after its twin: CPU per workflow before/now from one run." };
var baselineDll = new Option<string?>("--baseline-service-dll") { Description = "An already published OrderService.dll of --baseline-commit, instead of publishing it." };
var baselineFirst = new Option<bool>("--baseline-first") { Description = "Run each variant's baseline service before its twin, not after (alternate it over repeated runs: the order within a pair moves its figures)." };
var serviceEnv = new Option<string[]>("--service-env") { Description = "KEY=VALUE (repeatable): environment for the service under test only, not the baseline (A/B a runtime knob against the same build).", AllowMultipleArgumentsPerToken = false };
var medianOf = new Option<string[]>("--median-of") { Description = "Only summarize these report.json files (repeatable, 3 or more runs of the same command): median and spread of each figure, as docs/performance.md table rows.", AllowMultipleArgumentsPerToken = true };
var fromJson = new Option<string?>("--from-json") { Description = "Only re-render report.md and chart.svg from an existing report.json (into --out, or beside it)." };
var planOnly = new Option<bool>("--plan-only") { Description = "Parse and check the options as a run would, print the plan (stores, variants, rows) and exit: nothing is published, started or connected to." };
var target = new Option<string?>("--target")
{
    Description = "Load-test this running OrderService (e.g. http://127.0.0.1:5000) with the workflow scenario: no "
        + "store orchestration, no audit; NBomber's statistics on the console and its reports in a new folder "
        + "in --out. Exits 2 when /health/ready does not answer 200, 130 after Ctrl+C.",
};
var duration = new Option<TimeSpan?>("--duration") { Description = "With --target: run for this long (e.g. 00:01:00) instead of exactly --workflows workflows." };
var config = new Option<string?>("--config")
{
    Description = "With --target: NBomber's JSON config; its LoadSimulationsSettings for the scenario \"workflow\" set "
        + "the load and the copies (without them, --workflows or --duration does).",
};
var notes = new Option<string[]>("--note") { Description = "A note for the report header (repeatable), e.g. what else ran on the machine.", AllowMultipleArgumentsPerToken = false };

var root = new RootCommand("OrderService shoot-out: stores and variants at concurrency, audited, with a report and a chart.")
{
    target, duration, config, stores, variants, layouts, workflows, concurrency, warmup, warmupFixed, replicas, abortRate, crash, crashVariants, crashWindow, failover, output, sqlServer, mongodb, citus, citusEngine, citusScaleOut, mongodbGroupCommit, sqlServerEngine, mongodbEngine, engines, postgres, pgbench, pgStatements, raw, otlp, serviceDll, serviceArtifacts, baselineCommit, baselineDll, baselineFirst, serviceEnv, notes, fromJson, medianOf, planOnly,
};

root.SetAction(async (parse, cancellationToken) =>
{
    if (parse.GetValue(medianOf) is { Length: > 0 } reports)
    {
        // Reads and prints only, so --plan-only changes nothing here.
        Console.Write(ReportSummary.Markdown([.. reports.Select(ReportWriter.Read)]));
        return 0;
    }

    if (parse.GetValue(target) is { } address)
    {
        var service = Uri.TryCreate(address, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
            ? uri
            : throw new ArgumentException($"--target: '{address}' is not an http:// or https:// address.");
        var load = new TargetOptions(
            service.AbsoluteUri.EndsWith('/') ? service : new Uri(service.AbsoluteUri + "/"),
            parse.GetValue(workflows) is var count and > 0 ? count : throw new ArgumentException("--workflows: 1 or more."),
            parse.GetValue(concurrency) is var copies and > 0 ? copies : throw new ArgumentException("--concurrency: 1 or more."),
            parse.GetValue(duration) is { } time ? (time > TimeSpan.Zero ? time : throw new ArgumentException("--duration: longer than zero.")) : null,
            parse.GetValue(config) is { } file ? (File.Exists(file) ? Path.GetFullPath(file) : throw new ArgumentException($"--config: no file {file}.")) : null,
            Path.GetFullPath(parse.GetValue(output)!));
        if (parse.GetValue(planOnly))
        {
            Console.WriteLine(load.Plan());
            return 0;
        }

        return await TargetRun.RunAsync(load, cancellationToken);
    }

    if (parse.GetValue(fromJson) is { } existing)
    {
        var directory = parse.GetResult(output) is null or { Implicit: true } ? Path.GetDirectoryName(Path.GetFullPath(existing))! : Path.GetFullPath(parse.GetValue(output)!);
        var rendered = ReportWriter.Read(existing);
        if (parse.GetValue(planOnly))
        {
            Console.WriteLine($"Plan (--plan-only): re-render {rendered.Rows.Count} rows of {Path.GetFullPath(existing)} into {directory}");
            return 0;
        }

        await ReportWriter.WriteAsync(rendered, directory);
        ConsoleReport.Print(rendered, directory);
        return 0;
    }

    var storeList = Split(parse.GetValue(stores)).Select(Variant.ParseStore).ToList();
    var sqlServerConnection = parse.GetValue(sqlServer);
    if (sqlServerConnection is not null && !storeList.Contains(StoreKind.SqlServer))
    {
        storeList.Add(StoreKind.SqlServer);
    }

    var mongoConnection = parse.GetValue(mongodb);
    if (mongoConnection is not null && !storeList.Contains(StoreKind.MongoDb))
    {
        storeList.Add(StoreKind.MongoDb);
    }

    var citusConnection = parse.GetValue(citus);
    if (citusConnection is not null && !storeList.Contains(StoreKind.Citus))
    {
        storeList.Add(StoreKind.Citus);
    }

    var options = new ShootoutOptions
    {
        Stores = storeList,
        Variants = Split(parse.GetValue(variants)),
        Layouts = Split(parse.GetValue(layouts)),
        Workflows = parse.GetValue(workflows),
        Concurrency = parse.GetValue(concurrency),
        Warmup = parse.GetValue(warmup),
        WarmupFixed = parse.GetValue(warmupFixed),
        Replicas = [.. Split(parse.GetValue(replicas)).Select(ParseReplicaCount)],
        AbortRate = parse.GetValue(abortRate),
        Crash = parse.GetValue(crash),
        CrashVariants = Split(parse.GetValue(crashVariants)),
        Failover = Split(parse.GetValue(failover)) is var modes && modes.All(m => m is "sync" or "async") ? modes : throw new ArgumentException("--failover: sync, async or sync,async."),
        CrashWindowSeconds = parse.GetValue(crashWindow) >= 0 ? parse.GetValue(crashWindow) : throw new ArgumentException("--crash-window: seconds, 0 or more."),
        OutputDirectory = Path.GetFullPath(parse.GetValue(output)!),
        SqlServerConnectionString = sqlServerConnection,
        PostgresConnectionString = parse.GetValue(postgres),
        MongoConnectionString = mongoConnection,
        CitusConnectionString = citusConnection,
        CitusEngineDirectory = parse.GetValue(citusEngine) is { } citusDirectory ? Path.GetFullPath(citusDirectory) : null,
        CitusScaleOutPort = parse.GetValue(citusScaleOut),
        MongoGroupCommitConnectionString = parse.GetValue(mongodbGroupCommit),
        SqlServerEngineDirectory = parse.GetValue(sqlServerEngine) is { } bbf ? Path.GetFullPath(bbf) : null,
        MongoEngineDirectory = parse.GetValue(mongodbEngine) is { } fdb ? Path.GetFullPath(fdb) : null,
        EnginesDirectory = parse.GetValue(engines) is { } folder ? Path.GetFullPath(folder) : ShootoutOptions.DefaultEnginesDirectory(),
        Pgbench = parse.GetValue(pgbench),
        PgStatements = parse.GetValue(pgStatements),
        Raw = parse.GetValue(raw),
        Otlp = parse.GetValue(otlp),
        ServiceDll = parse.GetValue(serviceDll) is { } dll ? Path.GetFullPath(dll) : null,
        ServiceArtifactsPath = parse.GetValue(serviceArtifacts),
        BaselineCommit = parse.GetValue(baselineCommit) ?? (parse.GetValue(baselineDll) is null ? null : "baseline"),
        BaselineServiceDll = parse.GetValue(baselineDll) is { } before ? Path.GetFullPath(before) : null,
        Command = "dotnet run -c Release --project tests/Load -- " + string.Join(' ', args.Select(a => a.IndexOfAny([' ', ';']) >= 0 ? $"\"{a}\"" : a)),
        Notes = parse.GetValue(notes) ?? [],
        BaselineFirst = parse.GetValue(baselineFirst),
        ServiceEnvironment = (parse.GetValue(serviceEnv) ?? []).Select(pair => pair.Split('=', 2)).ToDictionary(
            pair => pair[0], pair => pair.Length == 2 ? pair[1] : throw new ArgumentException($"--service-env {pair[0]}: expected KEY=VALUE.")),
    };

    if (ShootoutPlan.Problems(options) is { Count: > 0 } problems)
    {
        foreach (var problem in problems)
        {
            Console.Error.WriteLine(problem);
        }

        return 2;
    }

    if (parse.GetValue(planOnly))
    {
        ShootoutPlan.Print(options, Console.Out);
        return 0;
    }

    var runner = new ShootoutRunner(options);
    var report = await runner.RunAsync(cancellationToken);
    await ReportWriter.WriteAsync(report, runner.OutputDirectory);
    ConsoleReport.Print(report, runner.OutputDirectory);

    // Non-zero when a run failed or a durable variant's audit is not clean (a traded crash run may lose commits by design).
    var bad = report.Rows.Where(r => r.Failure is not null || r.Audit is null || (r.Durable && !r.Audit.IsClean) || (!r.Crash && r.OkWorkflows != r.Workflows)).ToList();
    foreach (var row in bad)
    {
        Console.Error.WriteLine($"NOT OK: {row.Key}");
    }

    return bad.Count == 0 ? 0 : 1;
});

// Ctrl+C cancels the action's token; this is how long the run then has to drain and write its reports.
return await root.Parse(args)
    .InvokeAsync(new InvocationConfiguration { ProcessTerminationTimeout = TimeSpan.FromSeconds(60) });

static int ParseReplicaCount(string value) =>
    int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var count) && count is >= 1 and <= 8
        ? count
        : throw new ArgumentException($"--replicas: '{value}' is not a count from 1 to 8.");

static List<string> Split(string? value) =>
    [.. (value ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)];

/// <summary>The harness's entry point; internal, so that the tests that reference this assembly see only the service's Program.</summary>
internal partial class Program;
