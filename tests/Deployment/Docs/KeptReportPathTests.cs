using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// Kept shoot-out reports (docs/shootout) name paths relative to the repository or to the run's folder, never a folder
/// of the machine that ran them: a reader's clone has none of those, and they say nothing about the run.
/// </summary>
public sealed partial class KeptReportPathTests
{
    private static readonly string[] TextFiles = [".md", ".json", ".txt", ".csv", ".html", ".svg"];

    [Fact]
    public void No_kept_report_names_a_folder_of_the_machine_that_ran_it()
    {
        var reports = Repository.PathOf("docs", "shootout");
        var files = Directory.EnumerateFiles(reports, "*", SearchOption.AllDirectories)
            .Where(file => TextFiles.Contains(Path.GetExtension(file), StringComparer.OrdinalIgnoreCase))
            .ToList();
        files.Count.ShouldBeGreaterThan(10, "the kept reports are found");

        var offenders = files
            .SelectMany(file => MachinePath().Matches(File.ReadAllText(file)).Select(match => $"{Path.GetRelativePath(Repository.Root, file)}: {match.Value}"))
            .ToList();

        offenders.ShouldBeEmpty(string.Join("\n", offenders.Take(20)));
    }

    [Theory]
    [InlineData("--out /work/main/docs/shootout/x", true)]
    [InlineData("log: /tmp/orderservice-ci.abc/pg.log", true)]
    [InlineData("C:\\Users\\ci\\runs\\report.md", true)]
    [InlineData("docs/shootout/2026-11-28/quick-set/report.md", false)]
    [InlineData("wf/s over /proc/stat", false)]
    public void The_pattern_finds_machine_folders_and_leaves_relative_paths(string text, bool found) =>
        MachinePath().IsMatch(text).ShouldBe(found);

    // Absolute folders a build machine or CI runner has: /work, /tmp, /home, /root, /srv, /var/tmp, and Windows drives.
    [GeneratedRegex(@"(?<![\w.])(/(work|tmp|home|root|srv|var/tmp|runner)/[\w.\-/]+|[A-Z]:\\[\w.\-\\]+)")]
    private static partial Regex MachinePath();
}
