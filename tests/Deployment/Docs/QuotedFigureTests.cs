using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// One figure per fact, from its report: every ratio ("1.85×") and every throughput ("810 wf/s") a page quotes must
/// be a figure of the kept report the page names for it, in a line of its own above the figures,
/// "Report: [name](path)", which holds until the next such line. A kept report is a file under docs/shootout/ or
/// docs/performance/. So a figure copied by hand cannot drift from its run, and a page cannot quote a figure of a
/// run other than the one it names.
/// </summary>
public sealed partial class QuotedFigureTests
{
    [Fact]
    public void The_targets_table_a_report_points_to_exists()
    {
        var pointer = TargetsTable().Match(Repository.Read("tests", "Load", "Shootout", "Ratios.cs"));
        pointer.Success.ShouldBeTrue("tests/Load/Shootout/Ratios.cs names no TargetsTable");

        var page = pointer.Groups["page"].Value;
        var anchors = MarkdownPage.Parse(page, Repository.Read(page.Split('/'))).Anchors;
        anchors.ShouldContain(pointer.Groups["anchor"].Value);
    }

    [Fact]
    public void Every_figure_a_page_quotes_is_in_the_report_the_page_names()
    {
        var pages = MarkdownPage.TrackedPages(Repository.Root).Where(MarkdownPage.IsManual).ToList();
        var problems = pages.SelectMany(p => QuotedFigures.Problems(Repository.Root, p)).ToList();

        problems.ShouldBeEmpty("figures that are not in the report their page names (name it in a line "
            + "\"Report: [name](path)\" above them, or copy the report's figure):\n" + string.Join('\n', problems));
        pages.Sum(p => QuotedFigures.ReportsNamed(Repository.Read(p))).ShouldBeGreaterThan(0, "no page names a report");
    }

    [Fact]
    public void A_figure_before_any_report_one_that_is_only_in_another_report_and_a_wrong_one_are_each_reported()
    {
        using var tree = new ScratchTree();
        tree.Write("docs/shootout/a/report.md", string.Join('\n',
            "| store | wf/s | × pgbench |", "|---|--:|--:|", "| postgres | 1,992 | 1.8549 |", "pgbench **438 wf/s**"));
        tree.Write("docs/shootout/b/report.md", "- ratio **2.01×**, 627 wf/s\n");
        tree.Write("docs/page.md", string.Join('\n',
            "# Page",
            "Before any report: 1.85×.",
            "Report: [a](shootout/a/report.md)",
            "PostgreSQL ran 1,992 wf/s, 1.85× and 1.9× pgbench (438 wf/s), `9.99×` in code.",
            "From the other report: 2.01× and 627 wf/s. A wrong one: 1.84×.",
            "```",
            "7.77× 123 wf/s",
            "```",
            "Report: [b](shootout/b/report.md)",
            "Now 2.01× holds."));

        QuotedFigures.Problems(tree.Root, "docs/page.md").ShouldBe([
            "docs/page.md:2: 1.85× comes before any \"Report:\" line",
            "docs/page.md:5: 2.01× is not in docs/shootout/a/report.md",
            "docs/page.md:5: 627 wf/s is not in docs/shootout/a/report.md",
            "docs/page.md:5: 1.84× is not in docs/shootout/a/report.md",
        ]);
    }

    [Fact]
    public void A_report_line_that_names_no_kept_report_is_reported()
    {
        using var tree = new ScratchTree();
        tree.Write("docs/notes.txt", "1.5×");
        tree.Write("docs/page.md", "Report: [gone](shootout/gone/report.md)\n\nReport: [notes](notes.txt)\n");
        const string Why = "is not a kept report (a file under docs/shootout/ or docs/performance/)";

        QuotedFigures.Problems(tree.Root, "docs/page.md").ShouldBe([
            $"docs/page.md:1: Report: shootout/gone/report.md {Why}",
            $"docs/page.md:3: Report: notes.txt {Why}",
        ]);
    }

    [GeneratedRegex(@"TargetsTable = ""(?<page>[^""#]+)#(?<anchor>[^""]+)""")]
    private static partial Regex TargetsTable();
}
