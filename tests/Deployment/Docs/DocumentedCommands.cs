using System.Text.RegularExpressions;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>One simple command of a page, with the folder a reader's earlier `cd` in the same block left them in.</summary>
internal sealed record DocumentedCommand(CodeBlock Block, ShellCommand Command, string Directory)
{
    public string Where => $"{Block.Page}:{Block.Line}: {string.Join(' ', Command.Words)}";
}

/// <summary>
/// The commands readers are told to type: every ```bash, ```sh and ```shell block of README.md, docs/ and
/// tests/Load/README.md, and every command written inline in their prose. Both the name check
/// (<see cref="CommandCheck"/>) and the run check (<see cref="CommandRuns"/>) read them from here.
/// </summary>
internal static partial class DocumentedCommands
{
    public static IEnumerable<CodeBlock> Blocks(string root) =>
        MarkdownPage.TrackedPages(root)
            .Where(p => p is "README.md" or "tests/Load/README.md" || p.StartsWith("docs/", StringComparison.Ordinal))
            .SelectMany(page => MarkdownPage.Parse(page, File.ReadAllText(Path.Combine(root, page))).CodeBlocks)
            .Where(b => b.Language is "bash" or "sh" or "shell" or MarkdownPage.InlineCommand);

    /// <summary>The block's commands in order; `cd DIR` moves the folder the following commands run in (relative to the root).</summary>
    public static IEnumerable<DocumentedCommand> In(CodeBlock block, string root)
    {
        var directory = "";
        foreach (var command in ShellCommands.Parse(block.Text))
        {
            yield return new DocumentedCommand(block, command, directory);
            if (command.Words is ["cd", var to])
            {
                directory = Join(root, directory, to);
            }
        }
    }

    /// <summary>A path relative to the root, with '/', from a folder relative to the root and a path relative to that folder.</summary>
    public static string Join(string root, string directory, string path) =>
        Path.GetRelativePath(root, Path.GetFullPath(Path.Combine(root, directory, path))).Replace('\\', '/');

    /// <summary>artifacts/bin/&lt;project&gt;/release/&lt;assembly&gt;.dll, the way the pages call a built assembly.</summary>
    [GeneratedRegex(@"^artifacts/bin/(?<project>[^/]+)/release/(?<assembly>[^/]+)\.dll$")]
    public static partial Regex ArtifactPath();
}
