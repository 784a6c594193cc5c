using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// The glossary has every shoot-out row a page names: the rows are read from the harness's catalogue
/// (tests/Load/Shootout/VariantCatalog.cs), so a new row that README or docs/ name in code fails here until the
/// glossary explains it. Kept reports are records of their day and are not read.
/// </summary>
public sealed partial class GlossaryTests
{
    [Fact]
    public void Every_shoot_out_row_a_page_names_is_in_the_glossary()
    {
        var rows = VariantName().Matches(Repository.Read("tests", "Load", "Shootout", "VariantCatalog.cs"))
            .Select(m => m.Groups["name"].Value).ToHashSet(StringComparer.Ordinal);
        rows.ShouldNotBeEmpty("no variant found in tests/Load/Shootout/VariantCatalog.cs");

        var terms = Repository.Read("docs", "glossary.md").Split('\n')
            .Where(l => l.StartsWith("| ", StringComparison.Ordinal))
            .SelectMany(l => l.Split('|')[1].Split(',', StringSplitOptions.TrimEntries))
            .ToHashSet(StringComparer.Ordinal);

        var pages = MarkdownPage.TrackedPages(Repository.Root)
            .Where(p => p == "README.md" || (p.StartsWith("docs/", StringComparison.Ordinal) && !p.StartsWith("docs/shootout/", StringComparison.Ordinal)));
        var missing = pages
            .SelectMany(page => CodeSpan().Matches(Repository.Read(page)).Select(m => (page, name: m.Groups["name"].Value.Split('/')[^1])))
            .Where(use => rows.Contains(use.name) && !terms.Contains(use.name))
            .Select(use => $"{use.page}: `{use.name}`")
            .Distinct()
            .ToList();

        missing.ShouldBeEmpty("these pages name shoot-out rows that docs/glossary.md does not explain");
    }

    [GeneratedRegex(@"new\(StoreKind\.\w+, \w+, ""(?<name>[a-z0-9-]+)""")]
    private static partial Regex VariantName();

    [GeneratedRegex(@"`(?<name>[a-z0-9/-]+)`")]
    private static partial Regex CodeSpan();
}
