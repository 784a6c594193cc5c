using System.Globalization;
using Spectre.Console;

namespace OrderService.Load.Shootout;

/// <summary>The results table on the console at the end of a run (plain text when the output is not a terminal).</summary>
public static class ConsoleReport
{
    public static void Print(ShootoutReport report, string outputDirectory)
    {
        var table = new Table().Border(TableBorder.Rounded)
            .Title($"{report.Header.Workflows} workflows at {report.Header.Concurrency} copies");
        foreach (var column in new[] { "store", "layout", "variant", "durable", "wall s", "wf/s", "p99 create", "p99 pay", "p99 ship", "p99 complete", "errors", "lost", "dup", "dirty", "HTTP/raw" })
        {
            table.AddColumn(new TableColumn(column));
        }

        foreach (var row in report.Rows)
        {
            var variant = row.Crash ? $"{row.Variant} (crash)" : row.Variant;
            if (row.Failure is not null && row.Steps.Count == 0)
            {
                table.AddRow(Cells(row.Store, row.Layout, variant, row.Durable ? "yes" : "traded", "-", "-", "-", "-", "-", "-", "failed", "-", "-", "-", "-"));
                continue;
            }

            table.AddRow(Cells(
                row.Store, row.Layout, variant, row.Durable ? "yes" : "traded",
                F(row.WallSeconds, "F1"), F(row.WorkflowsPerSecond, "F0"),
                P99(row, "create"), P99(row, "pay"), P99(row, "ship"), P99(row, "complete"),
                ReportWriter.Errors(row), row.Audit?.Lost.ToString(CultureInfo.InvariantCulture) ?? "?",
                row.Audit?.Duplicates.ToString(CultureInfo.InvariantCulture) ?? "?", ReportWriter.DirtyReads(row),
                row.HttpToRawRatio is { } ratio ? F(ratio, "F2") : "-"));
        }

        TableConsole().Write(table);
        foreach (var reference in report.References)
        {
            Console.WriteLine($"{reference.Store} {reference.Name}: {F(reference.WorkflowsPerSecond, "F0")} wf/s");
        }

        foreach (var ratio in Ratios.Describe(report))
        {
            Console.WriteLine(ratio.Replace("**", "", StringComparison.Ordinal));
        }

        foreach (var row in report.Rows.Where(r => r.Conditions is { Flags.Length: > 0 }))
        {
            Console.WriteLine($"{row.Key}{(row.Crash ? " (crash)" : "")}: {row.Conditions!.Flags} run (report.md, Run conditions)");
        }

        foreach (var row in report.Rows.Where(r => r.Failure is not null))
        {
            Console.WriteLine($"{row.Key} failed: {row.Failure}");
        }

        Console.WriteLine($"Report: {Path.Combine(outputDirectory, "report.md")} (JSON: report.json, chart: chart.svg, NBomber's reports: nbomber/)");
    }

    /// <summary>The terminal as it is; for logs (CI, redirected output) plain text, wide enough for every column.</summary>
    private static IAnsiConsole TableConsole()
    {
        if (Scenarios.LiveProgress.IsInteractive)
        {
            return AnsiConsole.Console;
        }

        var plain = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors });
        plain.Profile.Width = 220;
        return plain;
    }

    private static string P99(VariantResult row, string step) =>
        row.Steps.FirstOrDefault(s => s.Step == step) is { Ok: > 0 } stats ? F(stats.P99, "F1") : "-";

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);

    private static Spectre.Console.Rendering.IRenderable[] Cells(params string[] values) =>
        [.. values.Select(v => new Text(v))];
}
