using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// A configuration key's type, default and allowed values are stated once, in the generated docs/configuration.md;
/// other pages link there. A table elsewhere that gives keys of that page with their defaults, values or types
/// would drift from the options classes the generated page is checked against.
/// </summary>
public sealed partial class KeyTableTests
{
    [Fact]
    public void Only_the_configuration_reference_has_tables_of_keys_with_their_defaults_or_values()
    {
        var keys = TableRow().Matches(Repository.Read("docs", "configuration.md")).Select(m => m.Groups["key"].Value).ToHashSet(StringComparer.Ordinal);
        keys.ShouldContain("Store:Provider");

        var pages = MarkdownPage.TrackedPages(Repository.Root)
            .Where(p => p != "docs/configuration.md" && !p.StartsWith("docs/shootout/2", StringComparison.Ordinal));
        var tables = pages.SelectMany(page => KeyTables(page, Repository.Read(page), keys)).ToList();

        tables.ShouldBeEmpty("tables of configuration keys outside docs/configuration.md (link to it instead):\n" + string.Join('\n', tables));
    }

    [Fact]
    public void A_table_of_keys_with_defaults_is_found_and_a_table_of_what_a_switch_does_is_not()
    {
        HashSet<string> keys = ["Store:Provider", "Store:UnitOfWork"];
        var page = string.Join('\n',
            "| key | default |", "|---|---|", "| `Store:Provider` | `Sqlite` |", "",
            "| switch | on MongoDB |", "|---|---|", "| `Store:UnitOfWork` | one session per request |", "",
            "```", "| key | default |", "|---|---|", "| `Store:UnitOfWork` | `PerRequest` |", "```");

        KeyTables("p.md", page, keys).ShouldBe(["p.md:3: `Store:Provider`"]);
    }

    private static IEnumerable<string> KeyTables(string page, string text, HashSet<string> keys)
    {
        var lines = text.ReplaceLineEndings("\n").Split('\n');
        var inFence = false;
        var describesValues = false;
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i];
            if (MarkdownPage.Fence().IsMatch(line))
            {
                inFence = !inFence;
                continue;
            }

            if (inFence || !line.StartsWith('|'))
            {
                describesValues = false;
                continue;
            }

            var cells = line.Trim().Trim('|').Split('|').Select(c => c.Trim()).ToArray();
            if (i + 1 < lines.Length && lines[i + 1].StartsWith("|-", StringComparison.Ordinal))
            {
                describesValues = cells.Skip(1).Any(c => c is "default" or "values" or "allowed" or "type");
                continue;
            }

            if (describesValues && TableRow().Match(line) is { Success: true } row && keys.Contains(row.Groups["key"].Value))
            {
                yield return $"{page}:{i + 1}: `{row.Groups["key"].Value}`";
            }
        }
    }

    [GeneratedRegex(@"^\| `(?<key>[A-Za-z_][A-Za-z0-9_:*]*)` \|", RegexOptions.Multiline)]
    private static partial Regex TableRow();
}
