using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// The manual stays readable: README.md, docs/**/*.md and tests/Load/README.md hold at most <see cref="Budget"/> words,
/// counted as `wc -w` counts them. Kept reports (docs/shootout/&lt;date&gt;/) and the generated key tables of
/// docs/configuration.md are not counted. The per-page counts are printed either way.
/// </summary>
public sealed class DocsBudgetTests
{
    public const int Budget = 20_000;

    private const string GeneratedTables = "docs/configuration.md";

    [Fact]
    public void The_pages_hold_at_most_the_budget_of_words()
    {
        var counts = Counts(Repository.Root, MarkdownPage.TrackedPages(Repository.Root));
        var total = counts.Sum(c => c.Words);
        var table = string.Join('\n', counts.OrderByDescending(c => c.Words).Select(c => $"{c.Words,6} {c.Page}"))
            + $"\n{total,6} total";
        TestContext.Current.SendDiagnosticMessage(table);

        counts.ShouldContain(c => c.Page == "README.md");
        total.ShouldBeLessThanOrEqualTo(Budget, $"the pages hold {total} words, over the budget of {Budget}:\n{table}");
    }

    [Fact]
    public void Words_are_counted_as_wc_counts_them_and_the_generated_tables_and_reports_are_left_out()
    {
        using var tree = new ScratchTree();
        tree.Write("README.md", "# A page\n\n  two\twords, `code` -- x\n");
        tree.Write("docs/configuration.md", "Prose here.\n| `K` | 1 |\n|---|\n");
        tree.Write("docs/shootout/2026-01-01/report.md", "never counted");

        var counts = Counts(tree.Root, ["README.md", "docs/configuration.md", "docs/shootout/2026-01-01/report.md"]);

        counts.ShouldBe([("README.md", 8), ("docs/configuration.md", 2)]);
    }

    /// <summary>Words per page of the manual.</summary>
    private static List<(string Page, int Words)> Counts(string root, IEnumerable<string> pages) =>
        [.. pages.Where(MarkdownPage.IsManual).Select(p => (p, Words(p, File.ReadAllText(Path.Combine(root, p)))))];

    /// <summary>As `wc -w` counts: runs of characters other than ASCII white space.</summary>
    private static int Words(string page, string text)
    {
        var lines = text.Split('\n');
        if (page == GeneratedTables)
        {
            lines = [.. lines.Where(l => !l.StartsWith('|'))];
        }

        return lines.Sum(l => l.Split([' ', '\t', '\v', '\f', '\r'], StringSplitOptions.RemoveEmptyEntries).Length);
    }
}
