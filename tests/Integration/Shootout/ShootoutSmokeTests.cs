extern alias load;

using System.Xml.Linq;
using load::OrderService.Load.Driver;
using load::OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Shootout;

/// <summary>
/// The shoot-out harness end to end, small and untimed: the real service as a process, SQLite and
/// PostgreSQL, two variants each, one crash run, the dirty-read probe, the raw baseline and pgbench.
/// It proves the harness works (every workflow acknowledged, audit clean, report written and parsed
/// back), not how fast anything is; the full matrix stays behind the explicit command.
/// </summary>
public sealed class ShootoutSmokeTests
{
    private const int Workflows = 200;

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
            Warmup = 20,
            AbortRate = 0.1,
            Crash = true,
            CrashVariants = [postgres ? "postgres/relational/v1-shared-uow" : "sqlite/relational/v1-shared-uow"],
            OutputDirectory = output,
            ServiceDll = ServiceBuild(),
            Command = "ShootoutSmokeTests",
        };

        try
        {
            var report = await new ShootoutRunner(options).RunAsync(TestContext.Current.CancellationToken);
            var (json, markdown, chart) = await ReportWriter.WriteAsync(report, output);

            report.Rows.Count.ShouldBe(options.Stores.Count * 2 + 1);
            report.Rows.Count(r => r.Crash).ShouldBe(1);
            foreach (var row in report.Rows)
            {
                row.Failure.ShouldBeNull(row.Key);
                row.OkWorkflows.ShouldBe(Workflows, $"{row.Key}: every workflow acknowledged; errors {string.Join(", ", row.Errors)}");
                row.Audit.ShouldNotBeNull(row.Key);
                row.Audit.Acknowledged.ShouldBe(Workflows, row.Key);
                row.Audit.Lost.ShouldBe(0, row.Key);
                row.Audit.WrongSequences.ShouldBe(0, row.Key);
                row.Audit.Duplicates.ShouldBe(0, $"{row.Key}: {string.Join("; ", row.Audit.Samples)}");
                row.Audit.DeclinesProbed.ShouldBeGreaterThan(0, row.Key);
                row.Audit.DirtyReads.ShouldBe(0, $"{row.Key} reads committed data only");
                row.Steps.Select(s => s.Step).ShouldContain("complete");
                row.Conditions.ShouldNotBeNull(row.Key);
                row.Conditions.Before.BackgroundCpu.ShouldNotBeNull($"{row.Key}: the machine's load is read before and after each run");
                row.Conditions.IsShort.ShouldBe(row.Conditions.WallSeconds < RunConditions.ShortRunSeconds);
                if (!row.Crash)
                {
                    row.RawWorkflowsPerSecond.ShouldNotBeNull(row.Key);
                    row.RawWorkflowsPerSecond.Value.ShouldBeGreaterThan(0);
                }
            }

            if (postgres)
            {
                report.References.ShouldContain(r => r.Name.StartsWith("pgbench (plain", StringComparison.Ordinal) && r.WorkflowsPerSecond > 0);
            }

            var parsed = ReportWriter.Read(json);
            parsed.Rows.Select(r => (r.Key, r.OkWorkflows, r.Audit!.Lost)).ShouldBe(report.Rows.Select(r => (r.Key, r.OkWorkflows, r.Audit!.Lost)));
            parsed.Header.Workflows.ShouldBe(Workflows);
            var text = await File.ReadAllTextAsync(markdown, TestContext.Current.CancellationToken);
            text.ShouldContain("| sqlite | Relational | v1-shared-uow |");
            text.ShouldContain("## Run conditions");
            XDocument.Load(chart).Root!.Name.LocalName.ShouldBe("svg");
            foreach (var row in report.Rows)
            {
                // The run's HdrHistogram log reads back with HdrHistogram's reader: one tagged histogram per step and outcome.
                var histograms = HistogramLog.Read(Path.Combine(output, row.HistogramFile!));
                var okCreates = histograms.Single(h => h.Tag == HistogramLog.Tag(row.Key, "workflow", "create", "ok"));
                okCreates.TotalCount.ShouldBe(row.Steps.Single(s => s.Step == "create").Ok, row.Key);
            }
        }
        finally
        {
            TryDelete(output);
        }
    }

    /// <summary>The service this test project already builds (its output holds OrderService.dll with its runtimeconfig), so the test need not publish.</summary>
    private static string? ServiceBuild()
    {
        var dll = Path.Combine(AppContext.BaseDirectory, "OrderService.dll");
        return File.Exists(dll) && File.Exists(Path.Combine(AppContext.BaseDirectory, "OrderService.runtimeconfig.json")) ? dll : null;
    }

    private static void TryDelete(string directory)
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
