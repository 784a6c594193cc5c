using System.Xml.Linq;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

/// <summary>
/// What keeps a small or disturbed shoot-out from misleading: short and noisy runs are flagged in the
/// report (Markdown, JSON) and its notes, the machine's load is read correctly from /proc, and the chart's
/// legend shows the pgbench entry only when pgbench ran.
/// </summary>
public sealed class RunConditionsTests
{
    private static readonly LoadSample Quiet = new(0.40, 0.50, 0.60, 0.03);
    private static readonly LoadSample Busy = new(3.10, 2.50, 1.90, 0.62);

    [Fact]
    public void The_load_averages_are_read_from_proc_loadavg()
    {
        MachineLoad.ParseLoadAverage("0.52 1.58 10.59 1/467 12345\n").ShouldBe((0.52, 1.58, 10.59));
    }

    [Fact]
    public void The_busy_share_counts_everything_but_idle_and_iowait_across_all_cores()
    {
        const string before = "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\n";
        const string after = "cpu  160 0 70 900 70 0 0 0 0 0\ncpu0 80 0 35 450 35 0 0 0 0 0\n";

        // busy +80 (user 60, system 20) of +200 in all.
        MachineLoad.BusyFraction(before, after).ShouldBe(0.4);
        MachineLoad.BusyFraction(before, before).ShouldBeNull();
    }

    [Theory]
    [InlineData(0.4, 0.03, 0.03, "short")]
    [InlineData(12.0, 0.30, 0.03, "noisy")]
    [InlineData(12.0, 0.03, 0.25, "noisy")]
    [InlineData(3.9, 0.03, 0.90, "short, noisy")]
    [InlineData(5.0, 0.24, 0.24, "")]
    public void A_run_is_flagged_short_under_5_s_and_noisy_when_the_idle_machine_was_a_quarter_busy(double seconds, double before, double after, string flags)
    {
        new RunConditions(seconds, Quiet with { BackgroundCpu = before }, Quiet with { BackgroundCpu = after }).Flags.ShouldBe(flags);
    }

    [Fact]
    public async Task The_report_records_the_load_before_and_after_each_variant_and_flags_short_and_noisy_runs()
    {
        var report = Report(
            Row("v1-shared-uow", 0.4, Quiet, Quiet),
            Row("durability-traded", 12.5, Quiet, Busy),
            Row("baseline", 20, Quiet, Quiet));
        var directory = Path.Combine(Path.GetTempPath(), $"conditions-{Guid.NewGuid():N}");
        try
        {
            var (json, markdown, _) = await ReportWriter.WriteAsync(report, directory);

            var parsed = ReportWriter.Read(json);
            parsed.Rows.Select(r => r.Conditions).ShouldBe(report.Rows.Select(r => r.Conditions));
            var text = await File.ReadAllTextAsync(markdown, TestContext.Current.CancellationToken);
            text.ShouldContain("## Run conditions");
            text.ShouldContain("| sqlite | Relational | v1-shared-uow | 0.4 | 0.40 → 0.40 | 3% / 3% | **short** |");
            text.ShouldContain("| sqlite | Relational | durability-traded | 12.5 | 0.40 → 3.10 | 3% / 62% | **noisy** |");
            text.ShouldContain("| sqlite | Relational | baseline | 20.0 | 0.40 → 0.40 | 3% / 3% | – |");
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public void The_notes_say_why_short_and_noisy_runs_mislead_only_when_there_are_some()
    {
        var options = new ShootoutOptions { Stores = [StoreKind.Sqlite], OutputDirectory = "unused" };

        var flagged = Notes.For(options, [Row("a", 0.4, Quiet, Quiet), Row("b", 30, Busy, Quiet)]).ToList();
        flagged.ShouldContain(n => n.StartsWith("1 measured run(s) lasted under 5 s", StringComparison.Ordinal) && n.Contains("warm-up is not scaled down", StringComparison.Ordinal));
        flagged.ShouldContain(n => n.StartsWith("1 run(s) are flagged noisy", StringComparison.Ordinal));

        var sound = Notes.For(options, [Row("c", 30, Quiet, Quiet)]).ToList();
        sound.ShouldNotContain(n => n.Contains("lasted under", StringComparison.Ordinal) || n.Contains("flagged noisy", StringComparison.Ordinal));
    }

    [Fact]
    public void The_chart_shows_the_pgbench_legend_entry_only_when_pgbench_ran()
    {
        var without = Legend(Report(Row("v1-shared-uow", 10, Quiet, Quiet)));
        without.ShouldNotContain(t => t.Contains("pgbench", StringComparison.Ordinal));
        without.ShouldContain("raw store-port limit (no HTTP)");

        var with = Legend(Report(Row("v1-shared-uow", 10, Quiet, Quiet)) with { References = [new ReferenceResult("sqlite", "pgbench (plain SQL)", 400, "d")] });
        with.ShouldContain("reference (pgbench)");
    }

    private static List<string> Legend(ShootoutReport report) =>
        [.. XDocument.Parse(SvgChart.Render(report)).Descendants().Where(e => e.Name.LocalName == "text").Select(e => e.Value)];

    private static ShootoutReport Report(params VariantResult[] rows)
    {
        var machine = new MachineInfo("host", 2, 4096, "cpu", "linux", ".NET 10", []);
        var header = new ReportHeader(DateTimeOffset.UnixEpoch, "cmd", machine, 300, 20, 2000, 0, new Dictionary<string, string> { ["sqlite"] = "file" });
        return new ShootoutReport(header, [.. rows], [], []);
    }

    private static VariantResult Row(string variant, double seconds, LoadSample before, LoadSample after) => new(
        $"sqlite/relational/{variant}", "sqlite", "Relational", variant, "variant 1", "d", true, "sync", false, 300, 20,
        seconds, 300 / seconds, 300, [new("create", 300, 0, 1, 2, 3, 4, 1.5, [])], [], new AuditResult(300, 0, 0, 0, 0, 0, 0, 0, []),
        null, null, null, null, null)
    {
        Conditions = new RunConditions(seconds, before, after),
    };
}
