using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// A file a page names in code (`src/OrderService.Data/StoreOptions.cs`, `Resilience/StorePipeline.cs`,
/// `StoreRegistration.cs`) exists in the repository: a moved or deleted file fails here instead of sending a reader
/// nowhere. A path is found from the root, from the page's folder, or as the end of a file's path; a bare name as
/// some file's name. Kept shoot-out reports are records of their day and are not checked.
/// </summary>
public sealed partial class NamedFileTests
{
    // Named on purpose though absent from a clone: build output, the engines' scripts beside the repository, a file
    // the reader creates, and routes of the running service.
    private static readonly string[] NotInTheRepository = ["OrderService.deps.json", "start.sh", "stop.sh", "appsettings.Development.json", "report.json"];

    [Fact]
    public void Every_file_a_page_names_exists()
    {
        var files = RepositoryFiles();
        var names = files.Select(Path.GetFileName).ToHashSet(StringComparer.Ordinal);
        var missing = new List<string>();
        foreach (var page in MarkdownPage.TrackedPages(Repository.Root).Where(p => !p.StartsWith("docs/shootout/", StringComparison.Ordinal) || p == "docs/shootout/README.md"))
        {
            var folder = Path.GetDirectoryName(page)!.Replace('\\', '/');
            var lines = Repository.Read(page).Split('\n');
            for (var index = 0; index < lines.Length; index++)
            {
                foreach (Match match in NamedFile().Matches(lines[index]))
                {
                    var named = match.Groups["file"].Value;
                    if (named.StartsWith('/') || named.StartsWith("../", StringComparison.Ordinal) || named.Any(c => c is '*' or '<' or '$')
                        || NotInTheRepository.Contains(Path.GetFileName(named)) || named.Split('/').Any(part => part.Length > 1 && part.All(char.IsUpper)))
                    {
                        continue;
                    }

                    var found = named.Contains('/', StringComparison.Ordinal)
                        ? files.Contains(named) || files.Contains(Normalize($"{folder}/{named}")) || files.Any(f => f.EndsWith("/" + named, StringComparison.Ordinal))
                        : names.Contains(named);
                    if (!found)
                    {
                        missing.Add($"{page}:{index + 1} `{named}`");
                    }
                }
            }
        }

        missing.ShouldBeEmpty("these pages name files the repository does not have");
    }

    private static HashSet<string> RepositoryFiles()
    {
        string[] skipped = ["artifacts", "node_modules", "bin", "obj", ".git"];
        return Directory.EnumerateFiles(Repository.Root, "*", SearchOption.AllDirectories)
            .Select(p => Path.GetRelativePath(Repository.Root, p).Replace('\\', '/'))
            .Where(p => !p.Split('/').Any(skipped.Contains))
            .ToHashSet(StringComparer.Ordinal);
    }

    private static string Normalize(string path)
    {
        var parts = new List<string>();
        foreach (var part in path.Split('/'))
        {
            if (part == ".." && parts.Count > 0)
            {
                parts.RemoveAt(parts.Count - 1);
            }
            else if (part is not ("" or "."))
            {
                parts.Add(part);
            }
        }

        return string.Join('/', parts);
    }

    [GeneratedRegex(@"`(?<file>[^`\s]+\.(?:cs|md|sql|yaml|yml|json|sh|props|http|csproj|py))`")]
    private static partial Regex NamedFile();
}
