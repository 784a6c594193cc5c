using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Architecture;

/// <summary>
/// Comments are at most 8% of src/'s C# lines: a few lines of contract, or one line of why where the code cannot say
/// it. A comment line is one whose first non-blank characters are //, /* or *.
/// </summary>
public sealed class SourceCommentTests
{
    private const double MaxCommentShare = 0.08;

    [Fact]
    public void Comments_are_at_most_8_percent_of_the_source_lines()
    {
        var src = Path.Combine(EngineDependencyTests.RepositoryRoot, "src");
        var files = Directory.EnumerateFiles(src, "*.cs", SearchOption.AllDirectories)
            .Select(path => Path.GetRelativePath(src, path))
            .Where(path => !path.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
            .Select(path => (Path: path, Lines: File.ReadAllLines(Path.Combine(src, path))))
            .Select(file => (file.Path, file.Lines.Length, Comments: file.Lines.Count(IsComment)))
            .ToList();
        var lines = files.Sum(file => file.Length);
        var comments = files.Sum(file => file.Comments);

        lines.ShouldBeGreaterThan(1_000);
        ((double)comments / lines).ShouldBeLessThanOrEqualTo(MaxCommentShare,
            $"{comments} of {lines} lines are comments; the most in: " + string.Join(", ", files
                .OrderByDescending(file => file.Comments).Take(5).Select(file => $"{file.Path} ({file.Comments})")));
    }

    private static bool IsComment(string line)
    {
        var text = line.TrimStart();
        return text.StartsWith("//", StringComparison.Ordinal) || text.StartsWith("/*", StringComparison.Ordinal)
            || text.StartsWith('*');
    }
}
