using System.Text.RegularExpressions;

namespace OrderService.Load.Shootout;

/// <summary>
/// Keeps the build machine's folders out of what a report says (its command, notes, failures): a path inside the
/// repository becomes repository-relative, one inside --out (when that lies elsewhere) starts with $OUT, one beside
/// the repository (../shared) starts with ../, and one in the temporary folder starts with $TMPDIR. Reports are kept
/// in the repository and read on other machines, where those folders mean nothing; the command stays one a shell runs.
/// </summary>
public static class ReportPaths
{
    public static string Scrub(string text, string repositoryRoot, string outputDirectory)
    {
        var repository = Trim(repositoryRoot);
        var output = Trim(outputDirectory);
        var replacements = new List<(string Root, string As)>();
        if (!IsInside(output, repository))
        {
            replacements.Add((output, "$OUT"));
        }

        replacements.Add((repository, "."));
        if (Path.GetDirectoryName(repository) is { Length: > 1 } parent)
        {
            replacements.Add((Trim(parent), ".."));
        }

        replacements.Add((Trim(Path.GetTempPath()), "$TMPDIR"));
        foreach (var (root, replacement) in replacements.Where(r => r.Root.Length > 1).OrderByDescending(r => r.Root.Length))
        {
            // The root itself or the root followed by '/': never a longer folder name that starts with it.
            text = Regex.Replace(text, Regex.Escape(root) + @"(?=/|[\s""'`)\]|,;]|$)(/)?", match =>
                match.Groups[1].Success ? (replacement == "." ? "" : replacement + "/") : replacement);
        }

        return text;
    }

    /// <summary>A relative path with forward slashes, as reports write them on every system.</summary>
    public static string Portable(string relativePath) => relativePath.Replace('\\', '/');

    private static string Trim(string path) => Path.GetFullPath(path).TrimEnd('/', '\\');

    private static bool IsInside(string path, string folder) =>
        path == folder || path.StartsWith(folder + "/", StringComparison.Ordinal);
}
