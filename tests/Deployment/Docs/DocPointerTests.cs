using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// A deployment file, script or source file that points a reader at the manual names a page by its path, and a
/// section by its anchor (`docs/operations.md#the-image`, `README.md#test-it`): the page must exist and have that
/// heading. A pointer by a section's title ("README: MongoDB", "README's publish line") goes stale unseen, so it is
/// reported too.
/// </summary>
public sealed partial class DocPointerTests
{
    private static readonly string[] Folders = ["deploy", "scripts", "src", "tests", "tools", ".ci"];

    private static readonly string[] Files =
        ["Dockerfile", "Dockerfile.native", "docker-compose.yml", ".gitignore", "Directory.Build.props"];

    // The doc checks' own tests hold sample pages and pointers, broken on purpose.
    private const string DocChecks = "tests/Deployment/Docs/";

    private static readonly string[] Kinds =
        [".cs", ".csproj", ".props", ".sh", ".py", ".yaml", ".yml", ".sql", ".json", ".conf", ""];

    [Fact]
    public void Every_pointer_from_a_deployment_file_script_or_source_file_names_a_page_and_heading_that_exist()
    {
        var files = Sources(Repository.Root).ToList();
        files.ShouldContain("Dockerfile");
        files.ShouldContain("deploy/k8s/deployment.yaml");

        var problems = files.SelectMany(f => Problems(Repository.Root, f)).ToList();

        problems.ShouldBeEmpty("pointers to the manual that lead nowhere (name the page and its heading's anchor, "
            + "e.g. docs/operations.md#the-image):\n" + string.Join('\n', problems));
    }

    [Fact]
    public void A_missing_page_a_missing_heading_and_a_pointer_by_title_are_reported()
    {
        using var tree = new ScratchTree();
        tree.Write("docs/a.md", "# A\n\n## The image\n");
        tree.Write("Dockerfile", string.Join('\n',
            "# fine: docs/a.md#the-image and docs/a.md.",
            "# gone: docs/b.md#x and docs/a.md#the-images",
            "# by title: README: MongoDB, and README's publish line"));

        Problems(tree.Root, "Dockerfile").ShouldBe([
            "Dockerfile:2: docs/b.md#x: no such page",
            "Dockerfile:2: docs/a.md#the-images: no heading with that anchor",
            $"Dockerfile:3: README: MongoDB: {ByTitleWhy}",
            $"Dockerfile:3: README's: {ByTitleWhy}",
        ]);
    }

    private static IEnumerable<string> Sources(string root)
    {
        string[] skipped = ["artifacts", "node_modules", "bin", "obj", ".git"];
        return Files.Where(f => File.Exists(Path.Combine(root, f)))
            .Concat(Folders.Where(f => Directory.Exists(Path.Combine(root, f)))
                .SelectMany(f => Directory.EnumerateFiles(Path.Combine(root, f), "*", SearchOption.AllDirectories))
                .Select(p => Path.GetRelativePath(root, p).Replace('\\', '/'))
                .Where(p => !p.Split('/').Any(skipped.Contains) && !p.StartsWith(DocChecks, StringComparison.Ordinal))
                .Where(p => Kinds.Contains(Path.GetExtension(p))))
            .Order(StringComparer.Ordinal);
    }

    private const string ByTitleWhy = "names a section by its title; name the page and its anchor";

    private static IEnumerable<string> Problems(string root, string file)
    {
        var lines = File.ReadAllLines(Path.Combine(root, file));
        for (var i = 0; i < lines.Length; i++)
        {
            foreach (Match pointer in Pointer().Matches(lines[i]))
            {
                var page = pointer.Groups["page"].Value;
                var path = Path.Combine(root, page);
                if (!File.Exists(path))
                {
                    yield return $"{file}:{i + 1}: {pointer.Value}: no such page";
                }
                else if (pointer.Groups["anchor"] is { Success: true } anchor
                    && !Anchors(page, path).Contains(anchor.Value))
                {
                    yield return $"{file}:{i + 1}: {pointer.Value}: no heading with that anchor";
                }
            }

            foreach (Match title in ByTitle().Matches(lines[i]))
            {
                yield return $"{file}:{i + 1}: {title.Value}: {ByTitleWhy}";
            }
        }
    }

    private static IReadOnlyList<string> Anchors(string page, string path) =>
        MarkdownPage.Parse(page, File.ReadAllText(path)).Anchors;

    [GeneratedRegex(@"(?<![\w/.-])(?<page>README\.md|docs/[\w/.-]+?\.md|tests/Load/README\.md)(?:#(?<anchor>[\w-]+))?")]
    private static partial Regex Pointer();

    [GeneratedRegex(@"\bREADME(?::\s+[A-Z]\w*|'s)")]
    private static partial Regex ByTitle();
}
