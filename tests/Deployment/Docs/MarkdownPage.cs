using System.ComponentModel;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using CliWrap;
using CliWrap.Buffered;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>A link as written in a page: where it is, and its target (path, anchor or both).</summary>
internal sealed record MarkdownLink(string Page, int Line, string Target);

/// <summary>A fenced code block: its language tag and its text, with the line of its first row.</summary>
internal sealed record CodeBlock(string Page, int Line, string Language, string Text);

/// <summary>
/// The parts of a Markdown page the doc checks read: headings (as GitHub's anchors), links outside code, and fenced
/// code blocks. Deliberately small: it reads what GitHub renders, not every CommonMark corner.
/// </summary>
internal sealed partial class MarkdownPage
{
    private MarkdownPage(string path, IReadOnlyList<string> anchors, IReadOnlyList<MarkdownLink> links, IReadOnlyList<CodeBlock> blocks)
    {
        Path = path;
        Anchors = anchors;
        Links = links;
        CodeBlocks = blocks;
    }

    /// <summary>The page's path relative to the repository root, with '/'.</summary>
    public string Path { get; }

    public IReadOnlyList<string> Anchors { get; }

    public IReadOnlyList<MarkdownLink> Links { get; }

    public IReadOnlyList<CodeBlock> CodeBlocks { get; }

    /// <summary>Every Markdown file git tracks (build output and npm folders are never tracked); a plain walk where git is absent.</summary>
    public static IReadOnlyList<string> TrackedPages(string root)
    {
        try
        {
            var git = Cli.Wrap("git").WithArguments(["-C", root, "ls-files", "-z", "--", "*.md"])
                .WithValidation(CommandResultValidation.None).ExecuteBufferedAsync().Task.GetAwaiter().GetResult();
            if (git.ExitCode == 0)
            {
                return [.. git.StandardOutput.Split('\0', StringSplitOptions.RemoveEmptyEntries)
                    .Where(p => !p.StartsWith("artifacts/", StringComparison.Ordinal)).Order(StringComparer.Ordinal)];
            }
        }
        catch (Win32Exception)
        {
            // No git on this machine: walk the tree instead.
        }

        string[] skipped = ["artifacts", "node_modules", "bin", "obj", ".git"];
        return [.. Directory.EnumerateFiles(root, "*.md", SearchOption.AllDirectories)
            .Select(p => System.IO.Path.GetRelativePath(root, p).Replace('\\', '/'))
            .Where(p => !p.Split('/').Any(skipped.Contains))
            .Order(StringComparer.Ordinal)];
    }

    /// <summary>The manual: README.md, tests/Load/README.md and docs/, but for the kept reports' folders.</summary>
    public static bool IsManual(string page) =>
        page is "README.md" or "tests/Load/README.md"
        || (page.StartsWith("docs/", StringComparison.Ordinal)
            && !page.StartsWith("docs/shootout/2", StringComparison.Ordinal));

    /// <summary>The language of a command written inline in prose (`dotnet run ...`), not in a fenced block.</summary>
    public const string InlineCommand = "inline";

    // How an inline code span that is a whole command begins; any other span is a name or a value, not a command.
    private static readonly string[] InlineCommandStarts = ["dotnet ", "scripts/", ".ci/run", "docker compose ", "ORDERS_"];

    public static MarkdownPage Parse(string path, string text)
    {
        var anchors = new List<string>();
        var links = new List<MarkdownLink>();
        var blocks = new List<CodeBlock>();
        var lines = text.ReplaceLineEndings("\n").Split('\n');
        string? fence = null;
        var fenceLanguage = "";
        var fenceStart = 0;
        var fenceText = new StringBuilder();

        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i];
            var fenceMatch = Fence().Match(line);
            if (fence is null && fenceMatch.Success)
            {
                fence = fenceMatch.Groups["fence"].Value;
                fenceLanguage = fenceMatch.Groups["language"].Value.Trim().ToLowerInvariant();
                fenceStart = i + 2;
                fenceText.Clear();
                continue;
            }

            if (fence is not null)
            {
                if (line.Trim().StartsWith(fence, StringComparison.Ordinal) && line.Trim().Trim(fence[0]).Length == 0)
                {
                    blocks.Add(new CodeBlock(path, fenceStart, fenceLanguage, fenceText.ToString()));
                    fence = null;
                }
                else
                {
                    fenceText.Append(line).Append('\n');
                }

                continue;
            }

            foreach (Match span in InlineCode().Matches(line))
            {
                var code = span.Value.Trim('`').Trim();
                // A bare "dotnet run" in prose names the tool, not a command to check.
                if (InlineCommandStarts.Any(start => code.StartsWith(start, StringComparison.Ordinal)) && code is not "dotnet run" and not "dotnet test")
                {
                    blocks.Add(new CodeBlock(path, i + 1, InlineCommand, code + "\n"));
                }
            }

            var prose = InlineCode().Replace(line, "");
            if (Heading().Match(line) is { Success: true } heading)
            {
                anchors.Add(Unique(Slug(heading.Groups["text"].Value), anchors));
            }

            foreach (Match link in InlineLink().Matches(prose))
            {
                links.Add(new MarkdownLink(path, i + 1, link.Groups["target"].Value));
            }

            if (ReferenceDefinition().Match(prose) is { Success: true } definition)
            {
                links.Add(new MarkdownLink(path, i + 1, definition.Groups["target"].Value));
            }

            foreach (Match html in HtmlAnchor().Matches(line))
            {
                anchors.Add(html.Groups["id"].Value);
            }
        }

        return new MarkdownPage(path, anchors, links, blocks);
    }

    /// <summary>
    /// GitHub's heading anchor: the rendered text (no Markdown markup), lower case, every character that is not a letter,
    /// a digit, a mark, a space, '-' or '_' dropped, and each space a '-'.
    /// </summary>
    public static string Slug(string heading)
    {
        var rendered = LinkMarkup().Replace(heading.Trim(), "${text}").Replace("`", "", StringComparison.Ordinal).Replace("**", "", StringComparison.Ordinal);
        var slug = new StringBuilder();
        foreach (var c in rendered.ToLowerInvariant())
        {
            var category = char.GetUnicodeCategory(c);
            if (c is ' ')
            {
                slug.Append('-');
            }
            else if (c is '-' or '_' || char.IsLetterOrDigit(c) || category is UnicodeCategory.NonSpacingMark or UnicodeCategory.SpacingCombiningMark)
            {
                slug.Append(c);
            }
        }

        return slug.ToString();
    }

    /// <summary>A second heading with the same text gets "-1", a third "-2", as on GitHub.</summary>
    private static string Unique(string slug, List<string> taken)
    {
        var candidate = slug;
        for (var n = 1; taken.Contains(candidate); n++)
        {
            candidate = $"{slug}-{n}";
        }

        return candidate;
    }

    [GeneratedRegex(@"^\s{0,3}(?<fence>`{3,}|~{3,})(?<language>[^`]*)$")]
    internal static partial Regex Fence();

    [GeneratedRegex(@"^\s{0,3}#{1,6}\s+(?<text>.+?)\s*#*\s*$")]
    internal static partial Regex Heading();

    [GeneratedRegex(@"(`+)[^`].*?\1")]
    internal static partial Regex InlineCode();

    [GeneratedRegex(@"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\((?<target>[^)\s]+)(?:\s+""[^""]*"")?\)")]
    private static partial Regex InlineLink();

    [GeneratedRegex(@"^\s{0,3}\[[^\]]+\]:\s*(?<target>\S+)")]
    private static partial Regex ReferenceDefinition();

    [GeneratedRegex(@"\[(?<text>[^\]]*)\]\([^)]*\)")]
    private static partial Regex LinkMarkup();

    [GeneratedRegex(@"<a\s+(?:name|id)=""(?<id>[^""]+)""")]
    private static partial Regex HtmlAnchor();
}
