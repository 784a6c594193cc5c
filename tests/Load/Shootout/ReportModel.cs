namespace OrderService.Load.Shootout;

/// <summary>The whole shoot-out: written as report.json, report.md and chart.svg, and parsed back by the CI test.</summary>
public sealed record ShootoutReport(
    ReportHeader Header,
    List<VariantResult> Rows,
    List<ReferenceResult> References,
    List<string> Notes);

public sealed record ReportHeader(
    DateTimeOffset StartedAt,
    string Command,
    MachineInfo Machine,
    int Workflows,
    int Concurrency,
    int Warmup,
    double AbortRate,
    Dictionary<string, string> Stores)
{
    /// <summary>"adaptive" (stop at steady state, <see cref="Warmup"/> is the cap) or "fixed" (exactly <see cref="Warmup"/>).</summary>
    public string WarmupMode { get; init; } = WarmupUsed.Adaptive;

    /// <summary>The replica counts the run compared (--replicas).</summary>
    public List<int> Replicas { get; init; } = [1];
}

public sealed record MachineInfo(
    string Host,
    int Cores,
    long MemoryMegabytes,
    string Cpu,
    string OperatingSystem,
    string Runtime,
    Dictionary<string, string> Versions);

/// <summary>One row: a variant's run over HTTP (or its crash run), with the audit and the raw baseline beside it.</summary>
public sealed record VariantResult(
    string Key,
    string Store,
    string Layout,
    string Variant,
    string SeedAnalogue,
    string Description,
    bool Durable,
    string Durability,
    bool Crash,
    int Workflows,
    int Concurrency,
    double WallSeconds,
    double WorkflowsPerSecond,
    long OkWorkflows,
    List<StepSummary> Steps,
    Dictionary<string, long> Errors,
    AuditResult? Audit,
    double? RawWorkflowsPerSecond,
    double? HttpToRawRatio,
    string? CrashNote,
    string? Failure,
    string? HistogramFile)
{
    public bool Passed => Failure is null && Audit is { IsClean: true } && OkWorkflows == Workflows;

    /// <summary>The run's length and the machine's load around it (null in reports from before it was recorded).</summary>
    public RunConditions? Conditions { get; init; }

    /// <summary>
    /// The service process's CPU time (user + system, /proc/&lt;pid&gt;/stat) over the measured window ÷ acknowledged
    /// workflows, in ms. The service runs as its own process, so the driver's and the database's CPU are not in it.
    /// Null for crash runs (the process restarts) and in older reports.
    /// </summary>
    public double? ServiceCpuMsPerWorkflow { get; init; }

    /// <summary>
    /// <see cref="ServiceCpuMsPerWorkflow"/> by the kind of thread that spent it (<see cref="ThreadCpu.Kinds"/>), in ms per
    /// workflow. Null for crash runs, with replicas, and in older reports.
    /// </summary>
    public Dictionary<string, double>? ServiceCpuByThread { get; init; }

    /// <summary>
    /// The database's statements over the measured window, per workflow (<see cref="Shootout.DatabaseStatements"/>), most
    /// execution time first: PostgreSQL rows of a run with --pg-statements; null otherwise and for crash runs.
    /// </summary>
    public List<StatementCost>? DatabaseStatements { get; init; }

    /// <summary>The load driver's (this harness process's) CPU over the same window ÷ workflows, in ms: what the client side costs.</summary>
    public double? DriverCpuMsPerWorkflow { get; init; }

    /// <summary>
    /// The database server's CPU (every process of it) over the same window ÷ workflows, in ms, when the harness owns the
    /// server on this machine (the throwaway PostgreSQL cluster); null otherwise and for crash runs.
    /// </summary>
    public double? DatabaseCpuMsPerWorkflow { get; init; }

    /// <summary>
    /// The raw run's CPU per workflow, in ms: this harness process's CPU over the raw run's measured window (the store
    /// port in process, with its resilience pipeline, plus the in-process driver loop). Service CPU minus this is
    /// roughly what the HTTP path costs per workflow. Null when no raw run ran.
    /// </summary>
    public double? RawCpuMsPerWorkflow { get; init; }

    /// <summary>
    /// The service process's peak resident set (VmHWM, /proc/&lt;pid&gt;/status) over its life, warm-up and measured run,
    /// in MB; with replicas, the largest. Null for crash runs (the process restarts) and in older reports.
    /// </summary>
    public double? ServicePeakMegabytes { get; init; }

    /// <summary>Null: the service built from the working tree; a commit: the --baseline-commit build run as this row's service.</summary>
    public string? ServiceBuild { get; init; }

    /// <summary>Service processes that served the run, on one database (1 in older reports).</summary>
    public int Replicas { get; init; } = 1;

    /// <summary>Each service process's CPU seconds over the measured window (how the work spread over the replicas).</summary>
    public List<double>? ReplicaCpuSeconds { get; init; }

    /// <summary>The warm-up before the measured run (null in older reports and for failed rows).</summary>
    public WarmupUsed? Warmup { get; init; }

    /// <summary>The warm-up before the raw store-port run, when one ran.</summary>
    public WarmupUsed? RawWarmup { get; init; }

    /// <summary>The folder, relative to the report, with NBomber's own reports (html, md, csv, txt) of this row's runs.</summary>
    public string? NBomberReports { get; init; }
}

/// <summary>One step's latency (ms) and outcome counts, from NBomber's step statistics.</summary>
public sealed record StepSummary(
    string Step,
    long Ok,
    long Failed,
    double P50,
    double P95,
    double P99,
    double Max,
    double Mean,
    Dictionary<string, long> Errors,
    Dictionary<string, string>? ErrorSamples = null)
{
    /// <summary>NBomber's requests per second of the step's successful calls (null in older reports).</summary>
    public double? Rps { get; init; }

    public static StepSummary From(NBomber.Contracts.Stats.StepStats stats) => new(
        stats.StepName, stats.Ok.Request.Count, stats.Fail.Request.Count,
        stats.Ok.Latency.Percent50, stats.Ok.Latency.Percent95, stats.Ok.Latency.Percent99,
        stats.Ok.Latency.MaxMs, stats.Ok.Latency.MeanMs,
        stats.Fail.StatusCodes.ToDictionary(c => c.StatusCode, c => (long)c.Count),
        stats.Fail.StatusCodes.Where(c => !string.IsNullOrEmpty(c.Message)).ToDictionary(c => c.StatusCode, c => c.Message))
    {
        Rps = stats.Ok.Request.RPS,
    };
}
