using System.Text.RegularExpressions;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>Resolves the links of a set of pages against a repository root and names each that does not resolve.</summary>
internal static partial class LinkCheck
{
    /// <summary>One line per broken link: "page:line: target: why".</summary>
    public static IReadOnlyList<string> Broken(string root, IReadOnlyList<string> pagePaths)
    {
        var pages = pagePaths.ToDictionary(p => p, p => MarkdownPage.Parse(p, File.ReadAllText(Path.Combine(root, p))), StringComparer.Ordinal);
        var broken = new List<string>();
        foreach (var link in pages.Values.SelectMany(p => p.Links))
        {
            if (Why(root, link, pages) is { } reason)
            {
                broken.Add($"{link.Page}:{link.Line}: {link.Target}: {reason}");
            }
        }

        return broken;
    }

    /// <summary>The link's target as a path relative to the root ('/'-separated, ".." where it leaves the root) and its anchor.</summary>
    public static (string Path, string? Anchor) Resolve(string page, string target)
    {
        var hash = target.IndexOf('#', StringComparison.Ordinal);
        var path = Uri.UnescapeDataString(hash < 0 ? target : target[..hash]);
        var anchor = hash < 0 ? null : Uri.UnescapeDataString(target[(hash + 1)..]);
        if (path.Length == 0)
        {
            return (page, anchor);
        }

        var parts = new List<string>();
        IEnumerable<string> start = path.StartsWith('/') ? [] : page.Split('/').SkipLast(1);
        foreach (var part in start.Concat(path.Split('/')))
        {
            if (part is "" or ".")
            {
                continue;
            }

            if (part == ".." && parts.Count > 0 && parts[^1] != "..")
            {
                parts.RemoveAt(parts.Count - 1);
            }
            else
            {
                parts.Add(part);
            }
        }

        return (string.Join('/', parts), anchor);
    }

    private static string? Why(string root, MarkdownLink link, Dictionary<string, MarkdownPage> pages)
    {
        if (Scheme().IsMatch(link.Target))
        {
            return null; // a web or mail link: not fetched
        }

        var (path, anchor) = Resolve(link.Page, link.Target);
        if (path.StartsWith("..", StringComparison.Ordinal))
        {
            return "leaves the repository (a clone has nothing beside it)";
        }

        var full = Path.Combine(root, path);
        if (!File.Exists(full) && !Directory.Exists(full))
        {
            return "no such file";
        }

        if (anchor is null || !path.EndsWith(".md", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        var target = pages.TryGetValue(path, out var known) ? known : MarkdownPage.Parse(path, File.ReadAllText(full));
        return target.Anchors.Contains(anchor, StringComparer.Ordinal) ? null : $"no heading with the anchor #{anchor} in {path}";
    }

    [GeneratedRegex(@"^[a-zA-Z][a-zA-Z0-9+.-]*:")]
    private static partial Regex Scheme();
}
