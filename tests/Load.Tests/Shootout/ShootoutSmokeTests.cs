using System.Xml.Linq;
using OrderService.Load.Scenarios;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Load.Tests.Shootout;

/// <summary>
/// The shoot-out harness end to end, small and untimed: the real service as a process, SQLite and
/// PostgreSQL, two variants each, one crash run, the dirty-read probe, the raw baseline and pgbench.
/// It proves the harness works (every workflow acknowledged, audit clean, report written and parsed
/// back), not how fast anything is; the full matrix stays behind the explicit command.
/// </summary>
public sealed class ShootoutSmokeTests
{
    private const int Workflows = 200;

    /// <summary>Windows of 60 (3 rounds of 20 copies): up to 4 windows, so the warm-up can stop at steady state or at the cap.</summary>
    private const int WarmupCap = 240;

    [Fact(Timeout = 300_000)]
    public async Task A_small_shootout_acknowledges_every_workflow_audits_clean_and_writes_a_report_that_parses_back()
    {
        var postgres = PostgresTarget.BinDirectory is not null;
        var output = Path.Combine(Path.GetTempPath(), $"shootout-smoke-{Guid.NewGuid():N}");
        var options = new ShootoutOptions
        {
            Stores = postgres ? [StoreKind.Sqlite, StoreKind.PostgreSql] : [StoreKind.Sqlite],
            Variants = ["relational/v1-shared-uow", "document/v5-group-commit"],
            Workflows = Workflows,
            Concurrency = 20,
            Warmup = WarmupCap,
            AbortRate = 0.1,
            Crash = true,
            CrashVariants = [postgres ? "postgres/relational/v1-shared-uow" : "sqlite/relational/v1-shared-uow"],
            OutputDirectory = output,
            ServiceDll = ServiceBuild(),
            Command = "ShootoutSmokeTests",
            PgStatements = postgres,
        };

        try
        {
            var report = await new ShootoutRunner(options).RunAsync(TestContext.Current.CancellationToken);
            var (json, markdown, chart) = await ReportWriter.WriteAsync(report, output);

            report.Rows.Count.ShouldBe(options.Stores.Count * 2 + 1);
            report.Rows.Count(r => r.Crash).ShouldBe(1);
            report.Notes.ShouldContain(
                n => n.StartsWith("Every service ran with RateLimiting__PermitLimit=0", StringComparison.Ordinal),
                "the harness turns the rate limiter off, and the report says so");
            foreach (var row in report.Rows)
            {
                row.Failure.ShouldBeNull(row.Key);
                row.OkWorkflows.ShouldBe(Workflows, $"{row.Key}: every workflow acknowledged; errors {string.Join(", ", row.Errors)}");
                row.Audit.ShouldNotBeNull(row.Key);
                row.Audit.Acknowledged.ShouldBe(Workflows, row.Key);
                row.Audit.Lost.ShouldBe(0, row.Key);
                row.Audit.WrongSequences.ShouldBe(0, row.Key);
                row.Audit.Duplicates.ShouldBe(0, $"{row.Key}: {string.Join("; ", row.Audit.Samples)}");
                var holds = row.Store == "postgres" && row.Layout == "Relational" && !row.Crash;
                (row.Audit.WritesHeld > 0).ShouldBe(holds,
                    $"{row.Key}: the harness holds writes only in a database it created, relational layout");
                row.Audit.DirtyReads.ShouldBe(0, $"{row.Key} reads committed data only");
                row.Steps.Select(s => s.Step).ShouldContain("complete");
                row.Conditions.ShouldNotBeNull(row.Key);
                row.Conditions.Before.BackgroundCpu.ShouldNotBeNull($"{row.Key}: the machine's load is read before and after each run");
                row.Conditions.IsShort.ShouldBe(row.Conditions.WallSeconds < RunConditions.ShortRunSeconds);
                AssertAdaptiveWarmup(row.Key, row.Warmup);
                if (!row.Crash)
                {
                    AssertAdaptiveWarmup(row.Key + " raw", row.RawWarmup);
                    row.RawWorkflowsPerSecond.ShouldNotBeNull(row.Key);
                    row.RawWorkflowsPerSecond.Value.ShouldBeGreaterThan(0);

                    // The split by thread accounts for all of the row's service CPU (what no live thread holds is under
                    // ended threads); it can read a little more, since /proc truncates each thread's time to 10 ms ticks.
                    row.ServiceCpuByThread.ShouldNotBeNull(row.Key);
                    row.ServiceCpuByThread[ThreadCpu.ThreadPool].ShouldBeGreaterThan(0, row.Key);
                    var overshootMs = (row.ServiceCpuByThread.Values.Sum() - row.ServiceCpuMsPerWorkflow!.Value) * Workflows;
                    overshootMs.ShouldBeInRange(-1, 100, row.Key);
                }
                else
                {
                    row.ServiceCpuByThread.ShouldBeNull($"{row.Key}: the service restarts mid-run, so no split");
                }
            }

            // The SQLite store's group-commit writer is a thread of its own, found by its name in the running service.
            report.Rows.Single(r => r.Key == "sqlite/relational/v1-shared-uow").ServiceCpuByThread![ThreadCpu.StoreWriter].ShouldBeGreaterThan(0);

            if (postgres)
            {
                report.References.ShouldContain(r => r.Name.StartsWith("pgbench (plain", StringComparison.Ordinal) && r.WorkflowsPerSecond > 0);

                // The throwaway cluster is the harness's: its CPU, every backend's, is measured beside the service's, and
                // pgbench's own client is measured when it exits. SQLite runs inside the service: no figure of its own.
                var pgbench = report.References.Single(r => r.Name.StartsWith("pgbench (plain", StringComparison.Ordinal));
                pgbench.DatabaseCpuMsPerWorkflow.ShouldNotBeNull().ShouldBeGreaterThan(0);
                pgbench.ClientCpuMsPerWorkflow.ShouldNotBeNull().ShouldBeGreaterThan(0);
                report.Rows.Where(r => r.Store == "postgres" && !r.Crash).ShouldAllBe(r => r.DatabaseCpuMsPerWorkflow > 0);

                // --pg-statements: the default row's statements per workflow are one create and three transitions (pay,
                // ship, complete), every one counted by the cluster the harness started.
                var statements = report.Rows.Single(r => r.Key == "postgres/relational/v1-shared-uow").DatabaseStatements.ShouldNotBeNull();
                statements.Single(s => s.Statement.StartsWith("WITH c AS (INSERT INTO customers", StringComparison.Ordinal)).CallsPerWorkflow.ShouldBe(1, 0.01);
                statements.Where(s => s.Statement.StartsWith("WITH u AS (UPDATE orders", StringComparison.Ordinal)).Sum(s => s.CallsPerWorkflow).ShouldBeInRange(3, 3.2);
                statements.ShouldAllBe(s => s.MicrosecondsPerCall > 0);
                report.Rows.Single(r => r.Crash).DatabaseStatements.ShouldBeNull("a crash restart loses the counts");
                pgbench.DatabaseStatements.ShouldNotBeNull().Single(s => s.Statement.StartsWith("INSERT INTO order_events", StringComparison.Ordinal))
                    .CallsPerWorkflow.ShouldBe(4, "pgbench appends an event in each of its four transactions");
                (await File.ReadAllTextAsync(markdown, TestContext.Current.CancellationToken)).ShouldContain("## Where PostgreSQL's time went");
            }

            report.Rows.Where(r => r.Store == "sqlite").ShouldAllBe(r => r.DatabaseCpuMsPerWorkflow == null && r.DatabaseStatements == null);

            var parsed = ReportWriter.Read(json);
            parsed.Rows.Select(r => (r.Key, r.OkWorkflows, r.Audit!.Lost)).ShouldBe(report.Rows.Select(r => (r.Key, r.OkWorkflows, r.Audit!.Lost)));
            parsed.Header.Workflows.ShouldBe(Workflows);
            var text = await File.ReadAllTextAsync(markdown, TestContext.Current.CancellationToken);
            text.ShouldContain("| sqlite | Relational | v1-shared-uow |");
            text.ShouldContain("## Run conditions");
            text.ShouldContain("## Where the service's CPU went");
            if (postgres)
            {
                text.ShouldContain("## The machine's CPU per workflow");
                parsed.Rows.Single(r => r.Key == "postgres/relational/v1-shared-uow").DatabaseStatements.ShouldNotBeNull()
                    .Select(st => st.Statement).ShouldBe(report.Rows.Single(r => r.Key == "postgres/relational/v1-shared-uow").DatabaseStatements!.Select(st => st.Statement));
            }
            text.ShouldContain(report.Rows[0].Warmup!.ToString(), Case.Sensitive, "report.md states each row's warm-up");
            parsed.Rows.Select(r => r.Warmup).ShouldBe(report.Rows.Select(r => r.Warmup), "report.json keeps each row's warm-up");
            XDocument.Load(chart).Root!.Name.LocalName.ShouldBe("svg");
            foreach (var row in report.Rows)
            {
                // NBomber drove the run: its own reports lie in the row's folder, report.md links them, and its step count is the row's.
                row.NBomberReports.ShouldNotBeNull(row.Key);
                foreach (var extension in new[] { "html", "md", "csv", "txt" })
                {
                    File.Exists(Path.Combine(output, row.NBomberReports, "http", $"{LoadSession.ReportFileName}.{extension}")).ShouldBeTrue($"{row.Key}: NBomber's {extension} report");
                }

                text.ShouldContain($"]({row.NBomberReports}/http/{LoadSession.ReportFileName}.html)");
                row.Steps.Single(s => s.Step == "create").Ok.ShouldBe(Workflows, row.Key);
                (await File.ReadAllTextAsync(Path.Combine(output, row.NBomberReports, "http", $"{LoadSession.ReportFileName}.csv"), TestContext.Current.CancellationToken))
                    .ShouldContain("workflow", Case.Sensitive, row.Key);
            }

            text.ShouldNotContain(output, Case.Sensitive, "report.md names --out as $OUT or relative paths, never the folder itself");
        }
        finally
        {
            TryDelete(output);
        }
    }

    /// <summary>
    /// Two service processes on one PostgreSQL database, each workflow's parts spread over both: every workflow
    /// acknowledged, the audit clean (no key, If-Match or event-sequence slip across processes), both processes busy.
    /// </summary>
    [Fact(Timeout = 300_000)]
    public async Task Two_replicas_on_one_postgres_database_share_every_workflow_and_audit_clean_and_sqlite_is_skipped_with_a_reason()
    {
        Assert.SkipWhen(PostgresTarget.BinDirectory is null, "PostgreSQL binaries are not installed here.");
        var output = Path.Combine(Path.GetTempPath(), $"shootout-replicas-{Guid.NewGuid():N}");
        var options = new ShootoutOptions
        {
            Stores = [StoreKind.Sqlite, StoreKind.PostgreSql],
            Variants = ["relational/v1-shared-uow"],
            Replicas = [2],
            Workflows = Workflows,
            Concurrency = 20,
            Warmup = 60,
            Raw = false,
            Pgbench = false,
            OutputDirectory = output,
            ServiceDll = ServiceBuild(),
            Command = "ShootoutSmokeTests replicas",
        };

        try
        {
            var report = await new ShootoutRunner(options).RunAsync(TestContext.Current.CancellationToken);

            var row = report.Rows.ShouldHaveSingleItem("SQLite's row with two processes is skipped, PostgreSQL's runs");
            row.Key.ShouldBe("postgres/relational/v1-shared-uow+2replicas");
            row.Replicas.ShouldBe(2);
            row.Failure.ShouldBeNull();
            row.OkWorkflows.ShouldBe(Workflows, $"errors {string.Join(", ", row.Errors)}");
            row.Audit.ShouldNotBeNull();
            row.Audit.Acknowledged.ShouldBe(Workflows);
            row.Audit.Lost.ShouldBe(0);
            row.Audit.WrongSequences.ShouldBe(0);
            row.Audit.Duplicates.ShouldBe(0, string.Join("; ", row.Audit.Samples));
            row.ReplicaCpuSeconds.ShouldNotBeNull().Count.ShouldBe(2);
            // Each process's CPU over the row: an idle one spends a few hundredths of a second; one that served part of
            // 200 workflows spends 0.1 s and more (0.1 to 0.14 s on a quiet 2-core machine, 2026-11-28).
            row.ReplicaCpuSeconds.ShouldAllBe(seconds => seconds > 0.05, "both processes served parts of the workflows");
            report.Notes.ShouldContain(n => n.Contains("sqlite/relational/v1-shared-uow with 2 replicas: skipped", StringComparison.Ordinal));
            report.Notes.ShouldContain(n => n.StartsWith("Replicas, postgres/relational/v1-shared-uow:", StringComparison.Ordinal));
            File.Exists(Path.Combine(output, "logs", "01-postgres-relational-v1-shared-uow-x2.service.2.log")).ShouldBeTrue("the second process logs beside the first");
        }
        finally
        {
            TryDelete(output);
        }
    }

    private static void AssertAdaptiveWarmup(string key, WarmupUsed? warmup)
    {
        warmup.ShouldNotBeNull(key);
        warmup.Mode.ShouldBe(WarmupUsed.Adaptive, key);
        warmup.Cap.ShouldBe(WarmupCap, key);
        warmup.WindowRates.Count.ShouldBeInRange(2, 4, $"{key}: steady needs two windows; the cap allows four");
        warmup.WindowRates.ShouldAllBe(rate => rate > 0, key);
        // One NBomber session: the workflows in flight when the budget closed finish too (at most one per copy, 20).
        // The watcher polls the count, so on the fast raw path up to about one more round of the copies finishes between
        // the window's end and the close (202 and 205 seen on a loaded machine): 2 × 20 above the windows, still well
        // under the cap a warm-up that did not stop would reach.
        var windowed = Math.Min(WarmupCap, warmup.WindowRates.Count * 60);
        warmup.Workflows.ShouldBeInRange(windowed, Math.Min(WarmupCap, windowed + 40), key);

        // Either two consecutive windows agreed within 5% (and it stopped there), or the cap was spent without that.
        var lastTwoAgree = SteadyStateDetector.Agree(warmup.WindowRates[^2], warmup.WindowRates[^1], SteadyStateDetector.DefaultTolerance);
        warmup.Steady.ShouldBe(lastTwoAgree, key);
        if (!warmup.Steady)
        {
            warmup.Workflows.ShouldBe(WarmupCap, $"{key}: an unsteady warm-up runs to its cap");
            warmup.WindowRates.Count.ShouldBe(4, $"{key}: every window of the cap was measured");
        }
        else
        {
            warmup.WindowRates.Zip(warmup.WindowRates.Skip(1)).SkipLast(1)
                .ShouldAllBe(pair => !SteadyStateDetector.Agree(pair.First, pair.Second, SteadyStateDetector.DefaultTolerance), $"{key}: it stops at the first agreement");
        }
    }

    /// <summary>The service this test project already builds (its output holds OrderService.dll with its runtimeconfig), so the test need not publish.</summary>
    internal static string? ServiceBuild()
    {
        var dll = Path.Combine(AppContext.BaseDirectory, "OrderService.dll");
        return File.Exists(dll) && File.Exists(Path.Combine(AppContext.BaseDirectory, "OrderService.runtimeconfig.json")) ? dll : null;
    }

    internal static void TryDelete(string directory)
    {
        try
        {
            Directory.Delete(directory, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}
