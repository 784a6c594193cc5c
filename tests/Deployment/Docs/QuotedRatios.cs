using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>A ratio as a page quotes it ("1.47×", "0.62x"): where, in which section, and its digits.</summary>
internal sealed record QuotedRatio(string Page, int Line, string Section, string Figure)
{
    public override string ToString() => $"{Page}:{Line} ({Section}): {Figure}×";
}

/// <summary>
/// The ratios the pages quote, and the ratios the kept shoot-out reports (docs/shootout/**/report.md|report.json)
/// contain, so that a page can be held to the reports: a figure quoted by hand drifts from its run, a figure copied
/// from a report does not.
/// </summary>
internal static partial class QuotedRatios
{
    /// <summary>Every ratio quoted in the prose and tables of a page: a decimal number followed by × or x. Code is skipped.</summary>
    public static IEnumerable<QuotedRatio> In(string page, string text)
    {
        var section = "";
        var inFence = false;
        var lines = text.ReplaceLineEndings("\n").Split('\n');
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i];
            if (MarkdownPage.Fence().IsMatch(line))
            {
                inFence = !inFence;
                continue;
            }

            if (inFence)
            {
                continue;
            }

            if (MarkdownPage.Heading().Match(line) is { Success: true } heading)
            {
                section = MarkdownPage.Slug(heading.Groups["text"].Value);
                continue;
            }

            foreach (Match ratio in Ratio().Matches(MarkdownPage.InlineCode().Replace(line, "")))
            {
                yield return new QuotedRatio(page, i + 1, section, ratio.Groups["figure"].Value);
            }
        }
    }

    /// <summary>
    /// The ratios of one kept report: in report.md every figure written with ×, and the cells of the ratio columns
    /// (HTTP/raw, × pgbench, CPU vs baseline); in report.json every property named a ratio.
    /// </summary>
    public static IEnumerable<decimal> InReport(string path)
    {
        var text = File.ReadAllText(path);
        if (path.EndsWith(".json", StringComparison.Ordinal))
        {
            using var json = JsonDocument.Parse(text);
            return RatioProperties(json.RootElement).ToList();
        }

        var figures = new List<decimal>();
        figures.AddRange(Ratio().Matches(text).Select(m => Parse(m.Groups["figure"].Value)));
        int[] columns = [];
        foreach (var line in text.ReplaceLineEndings("\n").Split('\n'))
        {
            if (!line.StartsWith('|'))
            {
                columns = [];
                continue;
            }

            var cells = line.Trim().Trim('|').Split('|').Select(c => c.Trim().Trim('*')).ToArray();
            if (columns.Length == 0)
            {
                columns = [.. cells.Select((c, i) => (c, i)).Where(c => RatioColumns.Contains(c.c)).Select(c => c.i)];
                if (columns.Length == 0)
                {
                    columns = [-1];
                }

                continue;
            }

            figures.AddRange(columns.Where(c => c >= 0 && c < cells.Length && Number().IsMatch(cells[c])).Select(c => Parse(cells[c])));
        }

        return figures;
    }

    /// <summary>Whether a quoted figure is one of these ratios, rounded as the page rounds it.</summary>
    public static bool IsAmong(string figure, IReadOnlyCollection<decimal> ratios)
    {
        var quoted = Parse(figure);
        var decimals = figure.Length - figure.IndexOf('.', StringComparison.Ordinal) - 1;
        return ratios.Any(r => Math.Round(r, decimals, MidpointRounding.AwayFromZero) == quoted);
    }

    private static readonly HashSet<string> RatioColumns = new(["HTTP/raw", "× pgbench", "raw × pgbench", "CPU vs baseline"], StringComparer.Ordinal);

    private static IEnumerable<decimal> RatioProperties(JsonElement element)
    {
        if (element.ValueKind == JsonValueKind.Object)
        {
            foreach (var property in element.EnumerateObject())
            {
                if (property.Value.ValueKind == JsonValueKind.Number && property.Name.Contains("Ratio", StringComparison.OrdinalIgnoreCase))
                {
                    yield return property.Value.GetDecimal();
                }

                foreach (var inner in RatioProperties(property.Value))
                {
                    yield return inner;
                }
            }
        }
        else if (element.ValueKind == JsonValueKind.Array)
        {
            foreach (var inner in element.EnumerateArray().SelectMany(RatioProperties))
            {
                yield return inner;
            }
        }
    }

    private static decimal Parse(string figure) => decimal.Parse(figure, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"(?<![\d.,])(?<figure>\d+\.\d+)\s?[×x](?![\p{L}\d])")]
    private static partial Regex Ratio();

    [GeneratedRegex(@"^\d+\.\d+$")]
    private static partial Regex Number();

}
