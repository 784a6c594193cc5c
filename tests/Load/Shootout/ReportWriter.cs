using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using OrderService.Load.Scenarios;

namespace OrderService.Load.Shootout;

/// <summary>
/// Writes the report as report.json (machine-readable, parsed back by CI), report.md and chart.svg. It replaces them
/// only where report.json is a report already (a re-render), never a file of those names that someone else wrote.
/// </summary>
public static class ReportWriter
{
    public static readonly JsonSerializerOptions JsonOptions = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
    };

    public static async Task<(string Json, string Markdown, string Chart)> WriteAsync(ShootoutReport report, string directory)
    {
        Directory.CreateDirectory(directory);
        var json = Path.Combine(directory, "report.json");
        var markdown = Path.Combine(directory, "report.md");
        var chart = Path.Combine(directory, "chart.svg");
        if (new[] { json, markdown, chart }.Any(File.Exists) && !IsReport(json))
        {
            throw new IOException(
                $"{directory} holds a report.json, report.md or chart.svg the harness did not write: none replaced.");
        }

        var repository = ShootoutOptions.FindRepositoryRoot();
        await File.WriteAllTextAsync(json, ReportPaths.Scrub(JsonSerializer.Serialize(report, JsonOptions), repository, directory)).ConfigureAwait(false);
        await File.WriteAllTextAsync(markdown, ReportPaths.Scrub(Markdown(report), repository, directory)).ConfigureAwait(false);
        await File.WriteAllTextAsync(chart, SvgChart.Render(report)).ConfigureAwait(false);
        return (json, markdown, chart);
    }

    /// <summary>True when the file reads back as a report: a run's own folder, rendered again.</summary>
    private static bool IsReport(string jsonPath)
    {
        try
        {
            return File.Exists(jsonPath) && Read(jsonPath).Header is not null;
        }
        catch (JsonException)
        {
            return false;
        }
    }

    public static ShootoutReport Read(string jsonPath) =>
        JsonSerializer.Deserialize<ShootoutReport>(File.ReadAllText(jsonPath), JsonOptions)
        ?? throw new InvalidDataException($"{jsonPath} holds no report.");

    public static string Markdown(ShootoutReport report)
    {
        var header = report.Header;
        var machine = header.Machine;
        var md = new StringBuilder();
        md.AppendLine("# OrderService shoot-out").AppendLine();
        md.AppendLine(Invariant($"{header.Workflows:N0} workflows (create → pay → ship → complete over HTTP) at {header.Concurrency} concurrent copies, ")
            + Invariant($"warm-up {WarmupHeader(header)}, abort rate {header.AbortRate:P0}. Started {header.StartedAt:u}."));
        md.AppendLine().AppendLine($"Command: `{header.Command}`").AppendLine();
        md.AppendLine("![workflows per second](chart.svg)").AppendLine();

        md.AppendLine("## Machine").AppendLine();
        md.AppendLine(Invariant($"{machine.Cores} cores ({machine.Cpu}), {machine.MemoryMegabytes:N0} MB, {machine.OperatingSystem}, {machine.Runtime}. "))
            .AppendLine("The load driver, the service and the database share these cores, so each number includes the others' CPU use.");
        md.AppendLine();
        foreach (var (name, version) in machine.Versions)
        {
            md.AppendLine($"- {name}: {version}");
        }

        md.AppendLine().AppendLine("## Stores and durability settings").AppendLine();
        foreach (var (store, description) in header.Stores)
        {
            md.AppendLine($"- **{store}**: {description}");
        }

        md.AppendLine().AppendLine("| store | layout | variant | seed 003 | what it changes | durability |").AppendLine("|---|---|---|---|---|---|");
        foreach (var row in report.Rows.Where(r => !r.Crash))
        {
            md.AppendLine($"| {row.Store} | {row.Layout} | {row.Variant} | {row.SeedAnalogue} | {row.Description} | {(row.Durable ? "durable" : "**traded**")}: {row.Durability} |");
        }

        md.AppendLine().AppendLine("## Results").AppendLine();
        md.AppendLine("Latency columns are p50 / p95 / p99 in ms. Lost, duplicates and dirty reads come from the audit after each run.").AppendLine();
        md.AppendLine("| store | layout | variant | durable | wall s | wf/s | create | pay | ship | complete | errors | lost | dup | dirty reads | raw wf/s | HTTP/raw | service CPU ms/wf |");
        md.AppendLine("|---|---|---|---|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|");
        foreach (var row in report.Rows)
        {
            var name = row.Crash ? $"{row.Variant} **(crash)**" : row.Variant;
            if (row.Failure is not null && row.Steps.Count == 0)
            {
                md.AppendLine($"| {row.Store} | {row.Layout} | {name} | {Yes(row.Durable)} | – | – | | | | | failed: {Escape(row.Failure)} | | | | | | |");
                continue;
            }

            md.AppendLine(Invariant($"| {row.Store} | {row.Layout} | {name} | {Yes(row.Durable)} | {row.WallSeconds:F1} | **{row.WorkflowsPerSecond:F0}** | ")
                + $"{Latency(row, "create")} | {Latency(row, "pay")} | {Latency(row, "ship")} | {Latency(row, "complete")} | {Errors(row)} | "
                + $"{row.Audit?.Lost.ToString(CultureInfo.InvariantCulture) ?? "?"} | {row.Audit?.Duplicates.ToString(CultureInfo.InvariantCulture) ?? "?"} | {DirtyReads(row)} | "
                + Invariant($"{(row.RawWorkflowsPerSecond is { } raw ? raw.ToString("F0", CultureInfo.InvariantCulture) : "–")} | {(row.HttpToRawRatio is { } ratio ? ratio.ToString("F2", CultureInfo.InvariantCulture) : "–")} | {SideBySide.N(row.ServiceCpuMsPerWorkflow, "F3")} |"));
        }

        SideBySide.Append(md, report);
        ServiceThreads.Append(md, report);
        MachineCpu.Append(md, report);
        DatabaseStatements.Append(md, report);

        RunConditionsSection(md, report);

        md.AppendLine().AppendLine("## References and ratios").AppendLine();
        foreach (var reference in report.References)
        {
            md.AppendLine(Invariant($"- {reference.Store} {reference.Name}: **{reference.WorkflowsPerSecond:F0} wf/s** ({reference.Detail})"));
        }

        foreach (var ratio in Ratios.Describe(report))
        {
            md.AppendLine($"- {ratio}");
        }

        var crashes = report.Rows.Where(r => r.Crash).ToList();
        if (crashes.Count > 0)
        {
            md.AppendLine().AppendLine("## Crash runs").AppendLine();
            foreach (var row in crashes)
            {
                md.AppendLine(row.Audit is { } audit
                    ? $"- {row.Key}: {row.CrashNote}; acknowledged {audit.Acknowledged}, **lost {audit.Lost}**, stored but never acknowledged {audit.StoredUnacknowledged}."
                    : $"- {row.Key}: **no verdict**, the run failed before its audit: {row.Failure ?? "no reason recorded"}");
            }
        }

        var findings = report.Rows.Where(r => r.Audit is { Samples.Count: > 0 } || r.Failure is not null || r.Errors.Count > 0).ToList();
        if (findings.Count > 0)
        {
            md.AppendLine().AppendLine("## Audit findings and failures").AppendLine();
            foreach (var row in findings)
            {
                if (row.Failure is not null)
                {
                    md.AppendLine($"- {row.Key}: run failed: {Escape(row.Failure)}");
                }

                foreach (var step in row.Steps)
                {
                    foreach (var (key, message) in step.ErrorSamples ?? [])
                    {
                        md.AppendLine($"- {row.Key}: {step.Step} {key}: {Escape(message)}");
                    }
                }

                foreach (var sample in row.Audit?.Samples ?? [])
                {
                    md.AppendLine($"- {row.Key}: {sample}");
                }
            }
        }

        md.AppendLine().AppendLine("## Notes").AppendLine();
        foreach (var note in report.Notes)
        {
            md.AppendLine($"- {note}");
        }

        NBomberReportsSection(md, report);
        return md.ToString();
    }

    private static void NBomberReportsSection(StringBuilder md, ShootoutReport report)
    {
        var rows = report.Rows.Where(r => r.NBomberReports is not null).ToList();
        if (rows.Count > 0)
        {
            md.AppendLine().AppendLine("## NBomber's reports").AppendLine();
            md.AppendLine("The per-step figures above are NBomber's scenario and step statistics. NBomber's own reports of each measured run: "
                + "`http/` the workflow over HTTP, `raw/` the store port; the warm-ups' folders hold only NBomber's log.").AppendLine();
            foreach (var row in rows)
            {
                var folder = row.NBomberReports!;
                var raw = row.RawWorkflowsPerSecond is null ? "" : $", raw: [html]({folder}/raw/{LoadSession.ReportFileName}.html)";
                md.AppendLine($"- {row.Key}: [html]({folder}/http/{LoadSession.ReportFileName}.html), [md]({folder}/http/{LoadSession.ReportFileName}.md), "
                    + $"[csv]({folder}/http/{LoadSession.ReportFileName}.csv), [txt]({folder}/http/{LoadSession.ReportFileName}.txt){raw}");
            }
        }
        else if (report.Rows.Any(r => r.HistogramFile is not null))
        {
            md.AppendLine().AppendLine("Each run's per-step latency histograms are in `histograms/*.hlog` (HdrHistogram log format, nanoseconds; tags key/scenario/step/ok|failed).");
        }
    }

    private static void RunConditionsSection(StringBuilder md, ShootoutReport report)
    {
        var rows = report.Rows.Where(r => r.Conditions is not null).ToList();
        if (rows.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Run conditions").AppendLine();
        md.AppendLine(Invariant($"The 1-minute load average before → after each run, and the share of CPU busy in the {MachineLoad.Window.TotalSeconds:F0} s before and after it while the harness was idle (other processes' work). "))
            .AppendLine(Invariant($"**short**: under {RunConditions.ShortRunSeconds:F0} s; **noisy**: that idle-time CPU reached {RunConditions.NoisyBackgroundCpu * 100:F0}%.")).AppendLine();
        md.AppendLine("The warm-up column gives each row's warm-up: its workflows, whether it stopped at steady state or at the cap, and each window's wf/s.").AppendLine();
        md.AppendLine("| store | layout | variant | wall s | load 1 min before → after | idle-time CPU before / after | flags | warm-up |").AppendLine("|---|---|---|--:|--:|--:|---|---|");
        foreach (var row in rows)
        {
            var c = row.Conditions!;
            var name = row.Crash ? $"{row.Variant} (crash)" : row.Variant;
            md.AppendLine(Invariant($"| {row.Store} | {row.Layout} | {name} | {c.WallSeconds:F1} | {c.Before.Load1:F2} → {c.After.Load1:F2} | {Share(c.Before.BackgroundCpu)} / {Share(c.After.BackgroundCpu)} | {(c.Flags.Length == 0 ? "–" : $"**{c.Flags}**")} | {row.Warmup?.ToString() ?? "–"} |"));
        }
    }

    private static string WarmupHeader(ReportHeader header) => header.WarmupMode switch
    {
        WarmupUsed.Off => "none",
        WarmupUsed.Fixed => Invariant($"{header.Warmup} workflows (fixed)"),
        _ => Invariant($"until steady state (two windows within {SteadyStateDetector.DefaultTolerance:P0} wf/s), at most {header.Warmup} workflows"),
    };

    private static string Share(double? fraction) => fraction is { } f ? (f * 100).ToString("F0", CultureInfo.InvariantCulture) + "%" : "?";

    internal static string Latency(VariantResult row, string step)
    {
        var stats = row.Steps.FirstOrDefault(s => s.Step == step);
        return stats is null || stats.Ok == 0 ? "–" : Invariant($"{stats.P50:F1} / {stats.P95:F1} / {stats.P99:F1}");
    }

    internal static string Errors(VariantResult row) =>
        row.Errors.Count == 0 ? "0" : string.Join(", ", row.Errors.OrderByDescending(e => e.Value).Select(e => $"{e.Key}×{e.Value}"));

    internal static string DirtyReads(VariantResult row) =>
        row.Audit is not { WritesHeld: > 0 } audit
            ? "not measured"
            : Invariant($"{audit.DirtyReads} of {audit.ProbeReads} reads");

    private static string Yes(bool durable) => durable ? "yes" : "traded";

    private static string Escape(string text) => text.ReplaceLineEndings(" ").Replace("|", "\\|", StringComparison.Ordinal);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
