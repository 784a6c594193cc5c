using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// A ratio a page quotes ("1.47×") is one a kept shoot-out report contains (docs/shootout/**/report.md or
/// report.json), rounded as the page rounds it; so a figure copied by hand cannot drift from its run, and one page
/// cannot say 1.47× while another says 1.78× of the same run. The figures that come from elsewhere (benchmarks,
/// scripts whose output is not kept) are listed below by the section that quotes them, each with its source.
/// </summary>
public sealed partial class QuotedRatioTests
{
    /// <summary>Sections whose ratios come from a measurement other than a kept shoot-out report: page, section anchor, source.</summary>
    private static readonly (string Page, string Section, string Source)[] FromElsewhere =
    [
        ("docs/performance.md", "targets", "the targets themselves, not measurements"),
        ("docs/performance.md", "latest-figures", "scripts/perf-report.sh, the median of 3 runs (each run's report in its OUT folder, not kept), and one document-layout run of 2026-11-26"),
        ("docs/performance.md", "batch-filter", "BenchmarkDotNet, tests/Benchmarks BatchFilterBenchmarks"),
        ("docs/performance.md", "cold-start", "scripts/cold-start.sh"),
        ("docs/cold-start.md", "the-command-and-its-latest-figures", "scripts/cold-start.sh"),
        ("docs/cold-start.md", "tried-and-not-kept", "scripts/cold-start.sh, and starts by hand of the same builds"),
        ("docs/cold-start.md", "what-the-target-would-take", "scripts/cold-start.sh with builds that switch parts off, and perf record of one start each"),
        ("docs/cold-start.md", "native-aot", "scripts/cold-start.sh with COLD_START_AOT=1 (the run the page's first table shows), and PERF_REPORT_NATIVE=1 scripts/perf-report.sh, the median of 3 runs (reports not kept)"),
        ("docs/cost-ladder.md", "the-ladder", "scripts/cost-ladder.sh, the table it prints and saves with its date and commit"),
        ("docs/cost-ladder.md", "where-it-goes-by-thread", "the shoot-out's \"Where the service's CPU went\" section (the command on the page) and a scripts/perf-report.sh run of 2026-11-29 read per thread from /proc (reports not kept)"),
        ("docs/cost-ladder.md", "a-replica-started-under-full-load", "scripts/start-under-load.sh (the command on the page; its table not kept) and a scripts/cold-start.sh run of the same session"),
        ("docs/cost-ladder.md", "runtime-settings", "scripts/cost-ladder.sh with g@NAME=VALUE rungs, and forty PostgreSQL shoot-outs of 2026-11-29 (the group-commit writers and the driver's settings; reports not kept)"),
        ("docs/performance.md", "what-stands-in-the-way-of-the-targets", "scripts/transition-read-back.sh, PostgreSQL shoot-outs of 2026-11-30 with --baseline-commit and pg_stat_statements, and BatchFilterBenchmarks of the build with arrays against the one before it (reports not kept)"),
        ("docs/performance.md", "allocations", "the benchmarks' allocations verb"),
        ("docs/performance.md", "the-fast-path", "BenchmarkDotNet, tests/Benchmarks OrderBsonBenchmarks"),
        ("docs/performance.md", "what-the-frameworks-parts-allocate", "the benchmarks' allocations verb"),
        ("docs/stores/postgresql.md", "prepared-statements-keep-one-plan", "PostgreSQL shoot-outs of 2026-11-29 with ANALYZE run by hand mid-run, on a cluster with pg_stat_statements preloaded (the commands on the page; reports not kept)"),
        ("docs/operations.md", "traces-metrics-and-logs-opentelemetry", "an --otlp shoot-out of 2026-11-24, its report not kept"),
        ("docs/isolation-and-durability.md", "strict-isolation-under-load", "a shoot-out of 2026-11-24 at 2,000 workflows, its report not kept"),
    ];

    /// <summary>Single figures derived from a kept report rather than printed in it: page, figure, how.</summary>
    private static readonly (string Page, string Figure, string Source)[] Derived =
    [
        ("docs/shootout/README.md", "3.8", "2026-11-27/seed-race-10k: the race ratio, slowest MongoDB row 200 ÷ best SQL Server row 52 wf/s; SQLite 971 ÷ FerretDB's best 253"),
        ("docs/shootout/README.md", "3.3", "2026-11-27/seed-race-10k: SQL Server v1 52 ÷ baseline 16 wf/s; PostgreSQL 824 ÷ FerretDB's best 253"),
        ("docs/shootout/README.md", "1.12", "2026-11-27/seed-race-10k: FerretDB v4 253 ÷ baseline 225 wf/s"),
        ("docs/shootout/README.md", "3.2", "seed 003's own figures: MongoDB 188 ÷ SQL Server 58 wf/s"),
        ("docs/shootout/README.md", "4.6", "seed 003's own figures: MongoDB baseline 188 ÷ j:true 41 wf/s"),
        ("docs/scale-out.md", "0.85", "2026-11-28/citus-race/scale-out: after the rebalance 99 ÷ before 117 wf/s (the report's scale-out note)"),
    ];

    [Fact]
    public void Every_ratio_a_page_quotes_is_in_a_kept_report_or_named_with_its_source()
    {
        var unsourced = Unsourced(Repository.Root, MarkdownPage.TrackedPages(Repository.Root));

        unsourced.ShouldBeEmpty("ratios that no kept report under docs/shootout contains: copy the report's figure, "
            + "or add the section to FromElsewhere with its source\n" + string.Join('\n', unsourced));
    }

    [Fact]
    public void The_targets_table_a_report_points_to_exists()
    {
        var pointer = TargetsTable().Match(Repository.Read("tests", "Load", "Shootout", "Ratios.cs"));
        pointer.Success.ShouldBeTrue("tests/Load/Shootout/Ratios.cs names no TargetsTable");

        var page = MarkdownPage.Parse(pointer.Groups["page"].Value, Repository.Read(pointer.Groups["page"].Value.Split('/')));
        page.Anchors.ShouldContain(pointer.Groups["anchor"].Value);
    }

    [Fact]
    public void A_figure_no_report_contains_is_reported_and_one_a_report_contains_is_not()
    {
        var root = Directory.CreateTempSubdirectory("orders-ratios-").FullName;
        try
        {
            Directory.CreateDirectory(Path.Combine(root, "docs", "shootout", "run"));
            File.WriteAllText(Path.Combine(root, "docs", "shootout", "run", "report.md"), string.Join('\n',
                "- PostgreSQL vs pgbench: 824 ÷ 561 = **1.47×**",
                "",
                "| store | wf/s | HTTP/raw |",
                "|---|--:|--:|",
                "| postgres | 824 | 0.62 |"));
            File.WriteAllText(Path.Combine(root, "docs", "shootout", "run", "report.json"), """{ "rows": [ { "httpToRawRatio": 0.4871 } ] }""");
            File.WriteAllText(Path.Combine(root, "README.md"), string.Join('\n',
                "# Front",
                "PostgreSQL ran 1.47× pgbench, 1.5× rounded, HTTP/raw 0.62x and 0.49×, `2.37×` in code.",
                "A planted figure: 2.37× pgbench.",
                "```",
                "9.99×",
                "```"));

            var unsourced = Unsourced(root, ["README.md", "docs/shootout/run/report.md"]);

            unsourced.ShouldBe(["README.md:3 (front): 2.37×"]);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private static List<string> Unsourced(string root, IEnumerable<string> pages)
    {
        var reports = Directory.EnumerateFiles(Path.Combine(root, "docs", "shootout"), "report.*", SearchOption.AllDirectories)
            .Where(f => f.EndsWith("report.md", StringComparison.Ordinal) || f.EndsWith("report.json", StringComparison.Ordinal))
            .SelectMany(QuotedRatios.InReport)
            .ToHashSet();
        reports.ShouldNotBeEmpty("no kept report under docs/shootout");

        return [.. pages
            .Where(p => !p.StartsWith("docs/shootout/", StringComparison.Ordinal) || p == "docs/shootout/README.md")
            .SelectMany(p => QuotedRatios.In(p, File.ReadAllText(Path.Combine(root, p))))
            .Where(q => !FromElsewhere.Any(e => e.Page == q.Page && e.Section == q.Section))
            .Where(q => !Derived.Any(d => d.Page == q.Page && d.Figure == q.Figure))
            .Where(q => !QuotedRatios.IsAmong(q.Figure, reports))
            .Select(q => q.ToString())];
    }

    [GeneratedRegex(@"TargetsTable = ""(?<page>[^""#]+)#(?<anchor>[^""]+)""")]
    private static partial Regex TargetsTable();
}
