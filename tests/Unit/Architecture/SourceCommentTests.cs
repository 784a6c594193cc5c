using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Architecture;

/// <summary>
/// Comments are at most 8% of src/'s C# lines: a few lines of contract, or one line of why where the code cannot say
/// it. A comment line is one whose first non-blank characters are //, /* or *. No line is longer than
/// .editorconfig's max_line_length.
/// </summary>
public sealed class SourceCommentTests
{
    private const double MaxCommentShare = 0.08;

    [Fact]
    public void Comments_are_at_most_8_percent_of_the_source_lines()
    {
        var files = SourceFiles().Select(file => (file.Path, file.Lines.Length, Comments: file.Lines.Count(IsComment)))
            .ToList();
        var lines = files.Sum(file => file.Length);
        var comments = files.Sum(file => file.Comments);

        lines.ShouldBeGreaterThan(1_000);
        ((double)comments / lines).ShouldBeLessThanOrEqualTo(MaxCommentShare,
            $"{comments} of {lines} lines are comments; the most in: " + string.Join(", ", files
                .OrderByDescending(file => file.Comments).Take(5).Select(file => $"{file.Path} ({file.Comments})")));
    }

    [Fact]
    public void No_line_is_longer_than_the_editorconfig_allows()
    {
        var limit = File.ReadAllLines(Path.Combine(EngineDependencyTests.RepositoryRoot, ".editorconfig"))
            .SkipWhile(line => line.Trim() != "[*.cs]").Skip(1).TakeWhile(line => !line.StartsWith('['))
            .Select(line => line.Split('=', 2, StringSplitOptions.TrimEntries))
            .Where(pair => pair is ["max_line_length", _]).Select(pair => int.Parse(pair[1], null)).Single();

        var tooLong = SourceFiles()
            .SelectMany(file => file.Lines.Select((line, i) => (file.Path, Line: i + 1, line.Length)))
            .Where(line => line.Length > limit).Select(line => $"{line.Path}:{line.Line} ({line.Length})").ToList();

        limit.ShouldBe(120);
        tooLong.ShouldBeEmpty();
    }

    private static IEnumerable<(string Path, string[] Lines)> SourceFiles()
    {
        var src = Path.Combine(EngineDependencyTests.RepositoryRoot, "src");
        return Directory.EnumerateFiles(src, "*.cs", SearchOption.AllDirectories)
            .Select(path => Path.GetRelativePath(src, path))
            .Where(path => !path.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
            .Select(path => (path, File.ReadAllLines(Path.Combine(src, path))));
    }

    private static bool IsComment(string line)
    {
        var text = line.TrimStart();
        return text.StartsWith("//", StringComparison.Ordinal) || text.StartsWith("/*", StringComparison.Ordinal)
            || text.StartsWith('*');
    }
}
