using System.Xml.Linq;
using OrderService.Load.Shootout;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class ReportWriterTests
{
    [Fact]
    public async Task The_report_round_trips_through_json_and_the_chart_is_valid_svg_with_one_bar_per_variant()
    {
        var directory = Path.Combine(Path.GetTempPath(), $"report-test-{Guid.NewGuid():N}");
        try
        {
            var report = SampleReport();
            var (json, markdown, chart) = await ReportWriter.WriteAsync(report, directory);

            var parsed = ReportWriter.Read(json);
            parsed.Rows.Select(r => (r.Key, r.WorkflowsPerSecond, r.Audit!.Lost, r.HttpToRawRatio)).ShouldBe(report.Rows.Select(r => (r.Key, r.WorkflowsPerSecond, r.Audit!.Lost, r.HttpToRawRatio)));
            parsed.Rows[0].Steps[0].P99.ShouldBe(12.5);
            parsed.References.Single().WorkflowsPerSecond.ShouldBe(420);

            var svg = XDocument.Load(chart);
            var bars = svg.Descendants().Where(e => e.Name.LocalName == "rect" && e.Attribute("height")?.Value == "18").ToList();
            bars.Count.ShouldBe(3, "two variants and the pgbench reference");
            bars.Count(b => b.Attribute("fill")!.Value == "url(#traded)").ShouldBe(1);

            var text = await File.ReadAllTextAsync(markdown, TestContext.Current.CancellationToken);
            text.ShouldContain("| postgres | Relational | v1-shared-uow | yes | 2.0 | **500** | 1.0 / 5.0 / 12.5 |");
            text.ShouldContain("service vs pgbench");
            text.ShouldContain("1.19×");
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public async Task A_report_is_rendered_again_over_its_own_files_but_never_over_a_report_md_someone_else_wrote()
    {
        var ct = TestContext.Current.CancellationToken;
        var directory = Path.Combine(Path.GetTempPath(), $"report-test-{Guid.NewGuid():N}");
        try
        {
            var (json, _, _) = await ReportWriter.WriteAsync(SampleReport(), directory);
            await ReportWriter.WriteAsync(ReportWriter.Read(json), directory);
            var theirs = Directory.CreateDirectory(Path.Combine(directory, "theirs")).FullName;
            await File.WriteAllTextAsync(Path.Combine(theirs, "report.md"), "mine", ct);

            await Should.ThrowAsync<IOException>(() => ReportWriter.WriteAsync(SampleReport(), theirs));

            (await File.ReadAllTextAsync(Path.Combine(theirs, "report.md"), ct)).ShouldBe("mine");
            File.Exists(Path.Combine(theirs, "report.json")).ShouldBeFalse();
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public void The_dirty_read_column_counts_reads_only_where_the_harness_held_writes()
    {
        var row = SampleReport().Rows[0];
        var audit = row.Audit!;

        ReportWriter.DirtyReads(row with { Audit = audit with { WritesHeld = 0, ProbeReads = 0 } })
            .ShouldBe("not measured");
        ReportWriter.DirtyReads(row with { Audit = audit with { WritesHeld = 30, ProbeReads = 900, DirtyReads = 0 } })
            .ShouldBe("0 of 900 reads");
    }

    [Fact]
    public void The_reply_scanner_reads_the_top_level_id_status_and_version_and_skips_nested_fields()
    {
        var json = """{"id":"0190a5b2-0000-7000-8000-000000000001","status":"Paid","lines":[{"sku":"A","quantity":1,"status":"x","version":9}],"version":2,"events":[{"sequence":1,"type":"Created","data":{"version":7}}]}"""u8;

        var (id, status, version) = OrderApi.ScanOrder(json);

        id.ShouldBe(Guid.Parse("0190a5b2-0000-7000-8000-000000000001"));
        status.ShouldBe("Paid");
        version.ShouldBe(2);
    }

    private static ShootoutReport SampleReport()
    {
        var machine = new MachineInfo("host", 2, 4096, "cpu", "linux", ".NET 10", new Dictionary<string, string> { ["PostgreSQL"] = "15" });
        var header = new ReportHeader(DateTimeOffset.UnixEpoch, "cmd", machine, 1000, 100, 100, 0, new Dictionary<string, string> { ["postgres"] = "cluster" });
        var steps = new List<StepSummary> { new("create", 1000, 0, 1, 5, 12.5, 20, 2, []) };
        var audit = new AuditResult(1000, 0, 0, 0, 0, 0, 0, 0, []);
        VariantResult Row(string variant, bool durable, double perSecond) => new(
            $"postgres/relational/{variant}", "postgres", "Relational", variant, "variant 1", "d", durable, "sync", false, 1000, 100,
            1000 / perSecond, perSecond, 1000, steps, [], audit, perSecond * 2, 0.5, null, null, "histograms/x.hlog");
        return new ShootoutReport(header,
            [Row("v1-shared-uow", true, 500), Row("durability-traded", false, 800)],
            [new ReferenceResult("postgres", "pgbench (plain per-statement SQL)", 420, "detail")],
            ["a note"]);
    }
}
