using System.Globalization;
using System.Security;
using System.Text;

namespace OrderService.Load.Shootout;

/// <summary>
/// A horizontal bar chart of workflows/s per variant, grouped by store: blue bars are durable, orange
/// striped bars trade durability, grey bars are references (pgbench), and a dark tick marks each
/// variant's raw store-port limit. Built as plain SVG text, so it needs no drawing package.
/// </summary>
public static class SvgChart
{
    private const int Width = 960;
    private const int LabelWidth = 300;
    private const int BarArea = 520;
    private const int RowHeight = 26;
    private const int Top = 84;

    public static string Render(ShootoutReport report)
    {
        var lines = BuildLines(report);
        var scale = NiceMaximum(lines.Select(l => Math.Max(l.Value, l.Raw ?? 0)).DefaultIfEmpty(1).Max());
        var height = Top + (lines.Count * RowHeight) + 60;
        var svg = new StringBuilder();
        svg.AppendLine(Invariant($"""<svg xmlns="http://www.w3.org/2000/svg" width="{Width}" height="{height}" viewBox="0 0 {Width} {height}" font-family="Segoe UI, Helvetica, Arial, sans-serif" font-size="13">"""));
        svg.AppendLine("""<defs><pattern id="traded" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="#f6ad55"/><rect width="3" height="8" fill="#dd6b20"/></pattern></defs>""");
        svg.AppendLine("""<rect width="100%" height="100%" fill="white"/>""");
        var header = report.Header;
        svg.AppendLine(Invariant($"""<text x="16" y="28" font-size="18" font-weight="bold">Workflows per second (higher is better): {header.Workflows:N0} workflows at {header.Concurrency} copies</text>"""));
        svg.AppendLine(Invariant($"""<text x="16" y="50" fill="#4a5568">{header.Machine.Cores} cores, {header.Machine.MemoryMegabytes / 1024.0:F0} GB shared by driver, service and database · create → pay → ship → complete over HTTP</text>"""));
        Legend(svg, 16, 70, showReference: report.References.Count > 0);

        var bottom = Top + (lines.Count * RowHeight);
        for (var quarter = 0; quarter <= 4; quarter++)
        {
            var x = LabelWidth + (BarArea * quarter / 4.0);
            svg.AppendLine(Invariant($"""<line x1="{x:F1}" y1="{Top}" x2="{x:F1}" y2="{bottom}" stroke="#e2e8f0" stroke-dasharray="2,3"/>"""));
            svg.AppendLine(Invariant($"""<text x="{x:F1}" y="{bottom + 18}" fill="#4a5568" font-size="11" text-anchor="middle">{scale * quarter / 4:F0}</text>"""));
        }

        var y = Top;
        foreach (var line in lines)
        {
            if (line.IsHeading)
            {
                svg.AppendLine(Invariant($"""<text x="16" y="{y + 18}" font-weight="bold" font-size="14">{Escape(line.Label)}</text>"""));
                svg.AppendLine(Invariant($"""<line x1="16" y1="{y + 23}" x2="{Width - 16}" y2="{y + 23}" stroke="#cbd5e0"/>"""));
                y += RowHeight;
                continue;
            }

            svg.AppendLine(Invariant($"""<text x="{LabelWidth - 8}" y="{y + 17}" text-anchor="end">{Escape(line.Label)}</text>"""));
            if (line.Failure is not null)
            {
                svg.AppendLine(Invariant($"""<text x="{LabelWidth + 4}" y="{y + 17}" fill="#c53030">run failed: {Escape(Shorten(line.Failure))}</text>"""));
                y += RowHeight;
                continue;
            }

            var barWidth = Math.Max(1, line.Value / scale * BarArea);
            svg.AppendLine(Invariant($"""<rect x="{LabelWidth}" y="{y + 4}" width="{barWidth:F1}" height="{RowHeight - 8}" fill="{line.Fill}" rx="2"/>"""));
            var verdict = line.Verdict is null ? "" : Invariant($""" <tspan fill="#c53030" font-weight="bold">{Escape(line.Verdict)}</tspan>""");
            var valueStart = LabelWidth + barWidth + 6;
            var valueEnd = valueStart + (7.5 * (line.Value.ToString("F0", CultureInfo.InvariantCulture).Length + 5 + (line.Verdict?.Length + 1 ?? 0)));
            var rawNote = "";
            if (line.Raw is { } raw)
            {
                // The raw limit is a thin marker on the same row; its number sits beside it, or in the
                // value's text when the marker falls where the value is written.
                var x = LabelWidth + (raw / scale * BarArea);
                svg.AppendLine(Invariant($"""<line x1="{x:F1}" y1="{y + 3}" x2="{x:F1}" y2="{y + RowHeight - 3}" stroke="#1a202c" stroke-width="2"><title>raw store-port limit: {raw:F0} wf/s</title></line>"""));
                if (x + 60 > valueStart && x < valueEnd + 4)
                {
                    rawNote = Invariant($""" <tspan fill="#718096" font-size="11">(raw {raw:F0})</tspan>""");
                }
                else
                {
                    svg.AppendLine(Invariant($"""<text x="{x + 4:F1}" y="{y + 17}" fill="#718096" font-size="11">raw {raw:F0}</text>"""));
                }
            }

            var textX = rawNote.Length > 0 ? Math.Max(valueStart, LabelWidth + ((line.Raw ?? 0) / scale * BarArea) + 6) : valueStart;
            svg.AppendLine(Invariant($"""<text x="{textX:F1}" y="{y + 17}"><tspan font-weight="bold">{line.Value:F0}</tspan> wf/s{rawNote}{verdict}</text>"""));
            y += RowHeight;
        }

        svg.AppendLine(Invariant($"""<line x1="{LabelWidth}" y1="{Top}" x2="{LabelWidth}" y2="{y}" stroke="#718096"/>"""));
        svg.AppendLine(Invariant($"""<text x="{LabelWidth + BarArea + 30}" y="{y + 18}" fill="#4a5568" font-size="11">wf/s</text>"""));
        svg.AppendLine("</svg>");
        return svg.ToString();
    }

    private sealed record Line(string Label, double Value, double? Raw, string Fill, string? Verdict, string? Failure, bool IsHeading = false);

    private static List<Line> BuildLines(ShootoutReport report)
    {
        var lines = new List<Line>();
        foreach (var store in report.Rows.Where(r => !r.Crash).GroupBy(r => r.Store))
        {
            lines.Add(new Line(StoreTitle(store.Key), 0, null, "", null, null, IsHeading: true));
            foreach (var row in store)
            {
                var verdict = row.Audit is { IsClean: false } audit
                    ? Invariant($"✗ lost {audit.Lost}, dup {audit.Duplicates}, bad seq {audit.WrongSequences}")
                    : row.Errors.Count > 0 ? Invariant($"✗ {row.Errors.Values.Sum()} errors") : null;
                lines.Add(new Line($"{row.Layout.ToLowerInvariant()} · {row.Variant}", row.WorkflowsPerSecond, row.RawWorkflowsPerSecond,
                    row.Durable ? "#2b6cb0" : "url(#traded)", verdict, row.Failure));
            }

            foreach (var reference in report.References.Where(r => r.Store == store.Key))
            {
                lines.Add(new Line(reference.Name, reference.WorkflowsPerSecond, null, "#a0aec0", null, null));
            }
        }

        return lines;
    }

    /// <param name="showReference">Only when a reference (pgbench) ran: a legend entry for a bar that is not there misleads.</param>
    private static void Legend(StringBuilder svg, int x, int y, bool showReference)
    {
        svg.AppendLine(Invariant($"""<rect x="{x}" y="{y - 10}" width="14" height="12" fill="#2b6cb0"/><text x="{x + 20}" y="{y}">durable (ack after the commit is on disk)</text>"""));
        svg.AppendLine(Invariant($"""<rect x="{x + 290}" y="{y - 10}" width="14" height="12" fill="url(#traded)"/><text x="{x + 310}" y="{y}">durability traded</text>"""));
        var next = x + 440;
        if (showReference)
        {
            svg.AppendLine(Invariant($"""<rect x="{next}" y="{y - 10}" width="14" height="12" fill="#a0aec0"/><text x="{next + 20}" y="{y}">reference (pgbench)</text>"""));
            next += 160;
        }

        svg.AppendLine(Invariant($"""<rect x="{next}" y="{y - 10}" width="3" height="14" fill="#1a202c"/><text x="{next + 10}" y="{y}">raw store-port limit (no HTTP)</text>"""));
    }

    private static string StoreTitle(string store) => store switch
    {
        "sqlite" => "SQLite (embedded in the service)",
        "postgres" => "PostgreSQL",
        "sqlserver" => "SQL Server",
        "mongodb" => "MongoDB",
        "citus" => "PostgreSQL on Citus (coordinator + workers)",
        _ => store,
    };

    private static double NiceMaximum(double value)
    {
        if (value <= 0)
        {
            return 1;
        }

        var magnitude = Math.Pow(10, Math.Floor(Math.Log10(value)));
        foreach (var step in new[] { 1.0, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 })
        {
            if (step * magnitude >= value)
            {
                return step * magnitude;
            }
        }

        return 10 * magnitude;
    }

    private static string Shorten(string text) => text.Length <= 70 ? text : text[..70] + "…";

    private static string Escape(string text) => SecurityElement.Escape(text) ?? "";

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
