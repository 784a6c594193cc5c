using System.Globalization;
using System.Text.RegularExpressions;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// The figures a page quotes (ratios "1.85×", throughputs "810 wf/s") outside code, each held to the kept report named
/// by the nearest "Report: [name](path)" line above it.
/// </summary>
internal static partial class QuotedFigures
{
    private static readonly string[] KeptReportFolders = ["docs/shootout/", "docs/performance/"];

    public static int ReportsNamed(string text) => text.Split('\n').Count(l => ReportLine().IsMatch(l));

    /// <summary>One line per figure that is not its report's, and per "Report:" line naming no kept report.</summary>
    public static List<string> Problems(string root, string page)
    {
        var problems = new List<string>();
        string? report = null;
        IReadOnlyList<decimal> figures = [];
        var inFence = false;
        var lines = File.ReadAllText(Path.Combine(root, page)).ReplaceLineEndings("\n").Split('\n');
        for (var i = 0; i < lines.Length; i++)
        {
            var where = $"{page}:{i + 1}";
            if (MarkdownPage.Fence().IsMatch(lines[i]))
            {
                inFence = !inFence;
                continue;
            }

            if (inFence)
            {
                continue;
            }

            if (ReportLine().Match(lines[i]) is { Success: true } named)
            {
                var target = named.Groups["target"].Value;
                report = LinkCheck.Resolve(page, target).Path;
                var kept = KeptReportFolders.Any(f => report.StartsWith(f, StringComparison.Ordinal))
                    && File.Exists(Path.Combine(root, report));
                if (!kept)
                {
                    var folders = string.Join(" or ", KeptReportFolders);
                    problems.Add($"{where}: Report: {target} is not a kept report (a file under {folders})");
                    report = null;
                }

                figures = kept ? Numbers(File.ReadAllText(Path.Combine(root, report!))) : [];
                continue;
            }

            var prose = MarkdownPage.InlineCode().Replace(lines[i], "");
            var quoted = Ratio().Matches(prose).Select(m => (m.Index, Text: Figure(m), Shown: Figure(m) + "×"))
                .Concat(Throughput().Matches(prose)
                    .Select(m => (m.Index, Text: Digits(Figure(m)), Shown: Figure(m) + " wf/s")))
                .OrderBy(q => q.Index);
            foreach (var (_, text, shown) in quoted)
            {
                if (report is null)
                {
                    problems.Add($"{where}: {shown} comes before any \"Report:\" line");
                }
                else if (!IsAmong(text, figures))
                {
                    problems.Add($"{where}: {shown} is not in {report}");
                }
            }
        }

        return problems;
    }

    /// <summary>Every number of a report's text, thousands separators dropped.</summary>
    private static List<decimal> Numbers(string text) =>
        [.. Number().Matches(text).Select(m => Parse(Digits(m.Value)))];

    /// <summary>Whether a quoted figure is one of these numbers, rounded as the page rounds it.</summary>
    private static bool IsAmong(string figure, IReadOnlyList<decimal> numbers)
    {
        var quoted = Parse(figure);
        var point = figure.IndexOf('.', StringComparison.Ordinal);
        var decimals = point < 0 ? 0 : figure.Length - point - 1;
        return numbers.Any(n => Math.Round(n, decimals, MidpointRounding.AwayFromZero) == quoted);
    }

    private static string Figure(Match match) => match.Groups["figure"].Value;

    private static string Digits(string number) => number.Replace(",", "", StringComparison.Ordinal);

    private static decimal Parse(string number) =>
        decimal.Parse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"^Report:\s*\[[^\]]*\]\((?<target>[^)\s]+)\)")]
    private static partial Regex ReportLine();

    [GeneratedRegex(@"(?<![\d.,])(?<figure>\d+\.\d+)\s?[×x](?![\p{L}\d])")]
    private static partial Regex Ratio();

    [GeneratedRegex(@"(?<![\d.,])(?<figure>\d{1,3}(?:,\d{3})+|\d+)\s?wf/s")]
    private static partial Regex Throughput();

    [GeneratedRegex(@"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.,])\d+(?:\.\d+)?")]
    private static partial Regex Number();
}
