using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// Every type, member or setting that docs/architecture.md names in code (`ResilientOrderStore`, `IGroupCommit`,
/// `EnsureSchemaAsync`) is in the code of src/, tools/ or tests/, comments left out: a renamed or deleted type fails here instead
/// of leaving the page describing what is gone. The files it names are checked by <see cref="NamedFileTests"/>.
/// </summary>
public sealed partial class ArchitectureNamesTests
{
    // An HTTP header the page names.
    private static readonly string[] NamedAsNotUsed = ["Accept"];

    [Fact]
    public void Every_name_the_architecture_page_cites_is_in_the_code()
    {
        var words = CodeWords();
        var missing = new List<string>();
        foreach (Match cited in Cited().Matches(Repository.Read("docs", "architecture.md")))
        {
            var text = cited.Groups["code"].Value;
            // Files are NamedFileTests' concern; a text with a space is a command line or a phrase, not a name.
            if (FileLike().IsMatch(text) || text.Contains(' ', StringComparison.Ordinal))
            {
                continue;
            }

            missing.AddRange(Identifier().Matches(text).Select(m => m.Value)
                .Where(name => char.IsUpper(name[0]) && !words.Contains(name) && !NamedAsNotUsed.Contains(name))
                .Select(name => $"`{text}`: {name}"));
        }

        missing.Distinct().ShouldBeEmpty("docs/architecture.md names these, but no code of src/, tools/ or tests/ does");
    }

    [Fact]
    public void A_name_that_is_gone_is_found_missing()
    {
        // Written in two parts, so that this file does not itself hold the name it expects to be missing.
        CodeWords().ShouldNotContain("Setting" + "Conversion");
        CodeWords().ShouldContain("ResilientOrderStore");
    }

    private static HashSet<string> CodeWords()
    {
        var words = new HashSet<string>(StringComparer.Ordinal);
        foreach (var folder in new[] { "src", "tools", "tests" })
        {
            foreach (var file in Directory.EnumerateFiles(Repository.PathOf(folder), "*.*", SearchOption.AllDirectories)
                .Where(f => f.EndsWith(".cs", StringComparison.Ordinal) || f.EndsWith(".csproj", StringComparison.Ordinal))
                .Where(f => !f.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj")))
            {
                foreach (var line in File.ReadLines(file).Where(l => !l.TrimStart().StartsWith("//", StringComparison.Ordinal)))
                {
                    words.UnionWith(Identifier().Matches(line).Select(m => m.Value));
                }
            }
        }

        return words;
    }

    [GeneratedRegex("`(?<code>[^`\n]+)`")]
    private static partial Regex Cited();

    [GeneratedRegex(@"(\.(cs|csproj|sql|md|json|sh|yml|props)$|/$|^src/|^tests/|^docs/)")]
    private static partial Regex FileLike();

    [GeneratedRegex("[A-Za-z_][A-Za-z0-9_]*")]
    private static partial Regex Identifier();
}
