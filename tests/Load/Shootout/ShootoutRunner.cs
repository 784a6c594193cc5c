using System.Data.Common;
using System.Globalization;
using Microsoft.Data.SqlClient;
using NBomber.Contracts;
using Npgsql;
using OrderService.Data;
using OrderService.Load.Scenarios;

namespace OrderService.Load.Shootout;

/// <summary>
/// The shoot-out, per SHOOTOUT.md: for each store and variant, reset the store, start the service,
/// warm up, drive W workflows at C copies, audit, and add one row; then the crash runs, the raw
/// baseline and pgbench; then the report.
/// </summary>
public sealed partial class ShootoutRunner(ShootoutOptions options)
{
    private readonly string _runId = DateTime.UtcNow.ToString("HHmmss", CultureInfo.InvariantCulture);
    private int _runNumber;
    private RunEstimate? _estimate;

    /// <summary>Where the run writes: --out when it is new or empty, else a folder the run creates in it.</summary>
    public string OutputDirectory => options.OutputDirectory;

    public async Task<ShootoutReport> RunAsync(CancellationToken cancellationToken)
    {
        var startedAt = DateTimeOffset.UtcNow;
        var requested = options.OutputDirectory;
        options = options with { OutputDirectory = RunFolder.ForRun(requested, "shootout") };
        if (options.OutputDirectory != Path.GetFullPath(requested))
        {
            Console.WriteLine($"{requested} holds files already: this run writes into {options.OutputDirectory}");
        }

        var serviceDll = options.ServiceDll ?? await ServicePublisher.CurrentAsync(options).ConfigureAwait(false);
        var baselineDll = options.BaselineServiceDll
            ?? (options.BaselineCommit is { } commit ? await ServicePublisher.BaselineAsync(options, commit).ConfigureAwait(false) : null);
        var rows = new List<VariantResult>();
        var skipped = new List<string>();
        var references = new List<ReferenceResult>();
        var storeDescriptions = new Dictionary<string, string>();
        var engineNotes = new List<string>();
        var postgresVersion = (string?)null;
        await using var otlpSink = options.Otlp ? OtlpSink.Start() : null;
        _estimate = new RunEstimate(options.Stores.Sum(PlannedRows));

        foreach (var store in options.Stores)
        {
            StoreTarget target;
            try
            {
                target = await StoreTarget.OpenAsync(store, options).ConfigureAwait(false);
            }
            catch (Exception exception) when (!cancellationToken.IsCancellationRequested)
            {
                Console.WriteLine($"{Variant.StoreName(store)}: cannot bring up the store: {exception.Message}");
                storeDescriptions[Variant.StoreName(store)] = $"not available: {exception.Message}";
                _estimate.Drop(PlannedRows(store));
                continue;
            }

            await using (target.ConfigureAwait(false))
            {
                storeDescriptions[Variant.StoreName(store)] = target.Description;
                engineNotes.AddRange(target.Notes);
                if (target is PostgresTarget)
                {
                    postgresVersion = await PostgresTarget.VersionAsync().ConfigureAwait(false);
                }

                foreach (var variant in options.SelectedVariants(store).SelectMany(v => otlpSink is null ? [v] : new[] { v, v.WithOtlpExport(otlpSink.Endpoint) }))
                {
                    // The baseline runs right beside its twin, same store and settings: CPU per workflow "before" vs "now"
                    // from one run. --baseline-first swaps the two, so that repeated runs can alternate the order.
                    foreach (var (dll, build) in BuildsInOrder(serviceDll, baselineDll))
                    {
                        // N = 1, 2, ... back to back, so the replica counts of one variant compare under the same machine load.
                        foreach (var replicas in options.Replicas)
                        {
                            if (ReplicaSupport.WhyNot(store, replicas) is { } reason)
                            {
                                Console.WriteLine($"== {variant.Key} with {replicas} replicas: skipped: {reason}");
                                skipped.Add($"{variant.Key} with {replicas} replicas: skipped: {reason}");
                                continue;
                            }

                            rows.Add(await RunVariantAsync(target, variant, crash: false, dll, cancellationToken, build, replicas).ConfigureAwait(false));
                        }
                    }
                }

                foreach (var variant in options.SelectedCrashVariants(store).Where(_ => target.OwnsProcess))
                {
                    rows.Add(await RunVariantAsync(target, variant, crash: true, serviceDll, cancellationToken).ConfigureAwait(false));
                }

                if (target is CitusTarget && options.CitusScaleOutPort is not null)
                {
                    var scaleOut = await RunVariantAsync(target, ScaleOutVariant, crash: false, serviceDll, cancellationToken, scaleOut: true).ConfigureAwait(false);
                    rows.Add(scaleOut);
                    engineNotes.Add($"Scale-out, {scaleOut.Key}: {scaleOut.CrashNote ?? scaleOut.Failure}; acknowledged {scaleOut.Audit?.Acknowledged}, lost {scaleOut.Audit?.Lost}, errors {(scaleOut.Errors.Count == 0 ? "none" : string.Join(", ", scaleOut.Errors.Select(e => $"{e.Key} ×{e.Value}")))}.");
                }

                if (target is PostgresTarget && options.Failover.Count > 0)
                {
                    rows.AddRange(await RunFailoverRowsAsync(serviceDll, engineNotes, cancellationToken).ConfigureAwait(false));
                }

                if (target is PostgresTarget or CitusTarget && options.Pgbench && PostgresTarget.BinDirectory is not null)
                {
                    references.Add(await RunPgbenchAsync(target, cancellationToken).ConfigureAwait(false));
                }
            }
        }

        if (otlpSink is not null)
        {
            Console.WriteLine($"OTLP sink: {otlpSink.Exports} exports, {otlpSink.Bytes / 1024} KiB received and dropped.");
        }

        var machine = await MachineProbe.DescribeAsync(options.RepositoryRoot).ConfigureAwait(false);
        if (postgresVersion is not null)
        {
            machine.Versions["PostgreSQL"] = postgresVersion;
        }

        var header = new ReportHeader(startedAt, options.Command, machine, options.Workflows, options.Concurrency, options.Warmup, options.AbortRate, storeDescriptions)
        {
            WarmupMode = options.Warmup <= 0 ? WarmupUsed.Off : options.WarmupFixed ? WarmupUsed.Fixed : WarmupUsed.Adaptive,
            Replicas = [.. options.Replicas],
        };
        return new ShootoutReport(header, rows, references, [.. Notes.For(options, rows), .. ReplicaSupport.Notes(options, rows), .. skipped, .. engineNotes]);
    }

    private async Task<VariantResult> RunVariantAsync(StoreTarget target, Variant variant, bool crash, string serviceDll, CancellationToken cancellationToken, string? baselineCommit = null, int replicas = 1, bool scaleOut = false)
    {
        var number = Interlocked.Increment(ref _runNumber);
        var build = (baselineCommit is null ? "" : $"@{baselineCommit}") + ReplicaSupport.Suffix(replicas) + (scaleOut ? ScaleOutSuffix : "");
        var runName = $"{number:D2}-{Variant.StoreName(variant.Store)}-{variant.Layout.ToLowerInvariant()}-{variant.Name}{(crash ? "-crash" : "")}{(scaleOut ? "-scale-out" : "")}{(baselineCommit is null ? "" : "-at-" + baselineCommit)}{(replicas > 1 ? $"-x{replicas}" : "")}";
        var tag = $"ld{_runId}n{number}";
        var label = (crash ? $"{variant.Key} (crash)" : variant.Key) + build;
        _estimate?.RowStarted();
        Console.WriteLine($"== {label}   [{_estimate}]");
        var logPath = Path.Combine(options.OutputDirectory, "logs", $"{runName}.service.log");
        Directory.CreateDirectory(Path.GetDirectoryName(logPath)!);
        try
        {
            var connectionString = await target.FreshDatabaseAsync(runName, variant, crash, cancellationToken).ConfigureAwait(false);
            var loadBefore = await MachineLoad.SampleAsync(cancellationToken).ConfigureAwait(false);
            var ledger = new RunLedger(tag, options.Workflows);
            var nbomber = Path.Combine(options.OutputDirectory, "nbomber", runName);
            ScenarioResult stats;
            string? crashNote = null;
            (TimeSpan? Service, TimeSpan? Driver, TimeSpan? Database) cpuBefore, cpuAfter;
            ThreadCpu.Snapshot? threadsBefore, threadsAfter;
            WarmupUsed warmup;
            List<double>? replicaCpu;
            double? peakMemory;
            var environment = ServiceEnvironment(target, variant, connectionString, underTest: baselineCommit is null);
            await using (var service = await ServiceReplicas.StartAsync(replicas, serviceDll, environment, logPath, options.Concurrency + options.ReaderCopies + 4, cancellationToken).ConfigureAwait(false))
            {
                var apis = service.Apis;
                warmup = await WarmUpAsync("warm-up", Path.Combine(nbomber, "http-warmup"), size => new HttpWorkflow(apis, new RunLedger($"{tag}w", size), new WorkflowSettings(0, TimeSpan.Zero)).Workflow(options.Concurrency, cancellationToken), cancellationToken).ConfigureAwait(false);
                var http = new HttpWorkflow(apis, ledger, new WorkflowSettings(options.AbortRate,
                    crash ? TimeSpan.FromSeconds(90) : TimeSpan.Zero,
                    crash ? null : HeldWrites(target, variant, connectionString),
                    TimeSpan.FromMilliseconds(options.HeldWriteMilliseconds)));
                var workflow = http.Workflow(options.Concurrency, cancellationToken);
                List<ScenarioProps> companions = options.AbortRate > 0 ? [http.Readers(workflow, options.ReaderCopies)] : [];
                await target.SettleAsync(connectionString, cancellationToken).ConfigureAwait(false);
                await JitSettle.SettleAsync(label, [.. service.Processes.Select(p => p.ProcessId).OfType<int>(), Environment.ProcessId], cancellationToken).ConfigureAwait(false);
                if (!crash)
                {
                    await target.BeginStatementsAsync(connectionString, cancellationToken).ConfigureAwait(false);
                }

                cpuBefore = (service.CpuTime, ProcessCpu.OfSelf(), target.DatabaseCpuTime);
                threadsBefore = replicas == 1 ? service.First.Threads : null;
                var replicaCpuBefore = service.CpuTimes;
                var running = RunClosedAsync(label, Path.Combine(nbomber, "http"), workflow, reports: true, companions, cancellationToken);
                var crashing = crash ? CrashMidRunAsync(workflow.Budget, running, target, service.First, cancellationToken)
                    : scaleOut ? ScaleOutMidRunAsync(workflow, running, target, connectionString, cancellationToken)
                    : Task.FromResult<string?>(null);
                stats = await running.ConfigureAwait(false);
                cpuAfter = (service.CpuTime, ProcessCpu.OfSelf(), target.DatabaseCpuTime);
                threadsAfter = replicas == 1 ? service.First.Threads : null;
                replicaCpu = ReplicaCpuSeconds(replicaCpuBefore, service.CpuTimes);
                peakMemory = service.PeakMemoryMegabytes;
                crashNote = await crashing.ConfigureAwait(false);
                await service.StopAsync().ConfigureAwait(false);
            }

            // Read after the window and its CPU figures, so that the query is in neither. A crash restart loses the counts.
            var statements = crash ? null : await target.StatementsAsync(connectionString, stats.OkIterations, cancellationToken).ConfigureAwait(false);
            var conditions = new RunConditions(Math.Round(stats.WallSeconds, 3), loadBefore, await MachineLoad.SampleAsync(cancellationToken).ConfigureAwait(false));
            var byThread = crash ? null : ThreadCpu.MillisecondsPerWorkflow(threadsBefore, threadsAfter, stats.OkIterations);
            WarnAboutConditions(label, conditions, byThread);
            AuditResult audit;
            await using (var client = await StoreClient.OpenAsync(variant, connectionString, cancellationToken, target.EngineSettings).ConfigureAwait(false))
            {
                audit = await Auditor.AuditAsync(client.Store, ledger, cancellationToken).ConfigureAwait(false);
            }

            // The raw limit does not depend on the replica count: it runs beside the single-replica row only.
            var raw = options.Raw && !crash && !scaleOut && baselineCommit is null && replicas == 1 ? await RunRawAsync(target, variant, runName, tag, nbomber, cancellationToken).ConfigureAwait(false) : null;

            // A crash restarts the service mid-run: its CPU before the kill is gone, so no figure rather than a wrong one.
            var ok = stats.OkIterations;
            _estimate?.RowFinished();
            return Row(variant, crash, stats, audit, raw?.WorkflowsPerSecond, crashNote, null) with
            {
                NBomberReports = ReportPaths.Portable(Path.GetRelativePath(options.OutputDirectory, nbomber)),
                Conditions = conditions,
                Key = variant.Key + build + (crash ? "+crash" : ""),
                Variant = variant.Name + build,
                ServiceBuild = baselineCommit,
                ServiceCpuMsPerWorkflow = crash ? null : ProcessCpu.MillisecondsPerWorkflow(cpuBefore.Service, cpuAfter.Service, ok),
                DriverCpuMsPerWorkflow = crash ? null : ProcessCpu.MillisecondsPerWorkflow(cpuBefore.Driver, cpuAfter.Driver, ok),
                ServiceCpuByThread = byThread,
                DatabaseStatements = statements,
                DatabaseCpuMsPerWorkflow = crash ? null : ProcessCpu.MillisecondsPerWorkflow(cpuBefore.Database, cpuAfter.Database, ok),
                RawCpuMsPerWorkflow = raw?.CpuMsPerWorkflow,
                ServicePeakMegabytes = crash ? null : peakMemory,
                Replicas = replicas,
                ReplicaCpuSeconds = crash ? null : replicaCpu,
                Warmup = warmup,
                RawWarmup = raw?.Warmup,
            };
        }
        catch (Exception exception) when (!cancellationToken.IsCancellationRequested)
        {
            Console.WriteLine($"   {label} failed: {exception.GetType().Name}: {exception.Message}");
            _estimate?.RowFinished();
            return Row(variant, crash, null, null, null, null, $"{exception.GetType().Name}: {FirstLine(exception.Message)}") with
            {
                Key = variant.Key + build + (crash ? "+crash" : ""),
                Variant = variant.Name + build,
                ServiceBuild = baselineCommit,
                Replicas = replicas,
            };
        }
    }

    private VariantResult Row(Variant variant, bool crash, ScenarioResult? stats, AuditResult? audit, double? raw, string? crashNote, string? failure)
    {
        var wall = stats?.WallSeconds ?? 0;
        var ok = stats?.OkIterations ?? 0;
        var perSecond = stats?.WorkflowsPerSecond ?? 0;
        var errors = new Dictionary<string, long>();
        foreach (var step in stats?.Steps ?? [])
        {
            foreach (var (key, count) in step.Errors)
            {
                errors[$"{key} {step.Step}"] = count;
            }
        }

        return new VariantResult(
            variant.Key + (crash ? "+crash" : ""), Variant.StoreName(variant.Store), variant.Layout, variant.Name, variant.SeedAnalogue,
            variant.Description, variant.Durable, variant.Durability, crash, options.Workflows, options.Concurrency,
            Math.Round(wall, 3), Math.Round(perSecond, 1), ok,
            stats?.Steps ?? [], errors, audit,
            raw is { } r ? Math.Round(r, 1) : null, raw is { } rr && rr > 0 && perSecond > 0 ? Math.Round(perSecond / rr, 3) : null,
            crashNote, failure, null);
    }

    /// <summary>
    /// Connections for the dirty-read probe's held writes: relational layout, whose row is what a pay writes, on the
    /// engines whose readers could see another connection's uncommitted write (SQL Server) or must not (PostgreSQL).
    /// </summary>
    private static Func<DbConnection>? HeldWrites(StoreTarget target, Variant variant, string connectionString) =>
        variant.Layout != nameof(StoreLayout.Relational) ? null
            : target is PostgresTarget ? () => new NpgsqlConnection(connectionString)
            : target is SqlServerTarget ? () => new SqlConnection(connectionString)
            : null;

    private static string FirstLine(string text) => text.Split('\n', 2)[0].Trim();

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
