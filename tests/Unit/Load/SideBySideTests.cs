using System.Diagnostics;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class SideBySideTests
{
    [Fact]
    public void A_variant_is_set_beside_its_baseline_build_with_the_cpu_ratio_and_pgbench_ratios()
    {
        var report = Report(serviceCpu: 0.5, baselineCpu: 1.25, perSecond: 650, pgbench: 500);

        var figures = SideBySide.For(report).Single();

        figures.Variant.ShouldBe("v1-shared-uow");
        figures.BaselineCommit.ShouldBe("de2015c");
        figures.CpuToBaseline!.Value.ShouldBe(0.4, 1e-9);
        figures.TimesPgbench!.Value.ShouldBe(1.3, 1e-9);
        figures.RawTimesPgbench!.Value.ShouldBe(2.6, 1e-9);
        figures.BaselineWorkflowsPerSecond.ShouldBe(300);
        Ratios.Describe(report).ShouldContain(line => line.Contains("0.500 ms now ÷ 1.250 ms at de2015c = **0.40×**"));
        Ratios.Describe(report).ShouldNotContain(line => line.Contains("@de2015c"), "the baseline row is not a variant of its own in the ratios");
        figures.RawCpuMs.ShouldBe(0.4);
        figures.PeakMegabytes.ShouldBe(120.4);
        figures.BaselinePeakMegabytes.ShouldBe(150);
        ReportWriter.Markdown(report).ShouldContain("| postgres | Relational | v1-shared-uow | 650 | 1300 | 0.50 | 1.30 | 2.60 | 0.500 | 0.100 | 0.400 | 1.250 | 0.40 | 300 | 120 | 150 |");
    }

    [Fact]
    public void A_ratio_with_a_target_points_to_the_targets_table_and_carries_no_value_of_its_own()
    {
        var lines = Ratios.Describe(Report(serviceCpu: 0.5, baselineCpu: 1.25, perSecond: 650, pgbench: 500)).ToList();

        lines.ShouldContain(line => line.Contains("v1-shared-uow (the default settings") && line.EndsWith("**1.30×** (target: docs/performance.md#targets)", StringComparison.Ordinal));
        lines.ShouldContain(line => line.StartsWith("Service CPU per workflow", StringComparison.Ordinal) && line.EndsWith("(target: docs/performance.md#targets)", StringComparison.Ordinal));
        lines.ShouldNotContain(line => line.Contains('≥') || line.Contains('≤'), "a target's value lives in docs/performance.md only");
        ReportWriter.Markdown(Report(0.5, 1.25, 650, 500)).ShouldNotContain("target ≤");
    }

    [Fact]
    public void The_summary_gives_the_median_and_the_spread_of_each_figure_over_the_runs()
    {
        var reports = new[] { Report(0.5, 1.0, 600, 500), Report(0.7, 1.0, 650, 500), Report(0.6, 1.5, 700, 400) };

        var summary = ReportSummary.Markdown(reports);

        summary.ShouldContain("| postgres | Relational | v1-shared-uow | 650 (600–700) |");
        summary.ShouldContain("| 0.600 (0.500–0.700) |");
        summary.ShouldContain("| 0.50 (0.40–0.70) |", customMessage: "CPU vs baseline: 0.5, 0.7, 0.4");
        summary.ShouldContain("pgbench (the same four transactions as plain SQL): 500 (400–500) wf/s");
        summary.ShouldContain("| 120 (120–120) | 150 (150–150) |", customMessage: "the peak memory of the service and of its baseline, the same in every run");
        summary.ShouldNotContain("CPU per workflow on this machine", Case.Sensitive, "no database CPU in these reports");

        // With the server's and pgbench's CPU measured: (0.5 + 0.1 + 0.3) = 0.9 ms, pgbench 1.35 ms: 1.5× predicted in every run.
        var measured = reports.Select(r => r with
        {
            Rows = [r.Rows[0] with { DatabaseCpuMsPerWorkflow = 0.3, ServiceCpuMsPerWorkflow = 0.5 }, r.Rows[1]],
            References = [r.References[0] with { ClientCpuMsPerWorkflow = 0.25, DatabaseCpuMsPerWorkflow = 1.1 }],
        }).ToArray();
        var withCpu = ReportSummary.Markdown(measured);
        withCpu.ShouldContain("pgbench's CPU per workflow on this machine (its client + the server): 1.350 (1.350–1.350) ms");
        withCpu.ShouldContain("postgres/relational/v1-shared-uow: CPU per workflow on this machine (service + driver + server) 0.900 (0.900–0.900) ms; the × pgbench it predicts 1.50 (1.50–1.50)");
    }

    [Fact]
    public void Process_cpu_is_read_from_proc_and_grows_with_work()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "/proc/<pid>/stat exists on Linux only");
        var before = ProcessCpu.OfSelf();
        before.ShouldNotBeNull();

        // Busy work until /proc shows 50 ms more CPU (a few ticks of 10 ms); on a machine shared with other
        // work this takes longer in wall time, so the cap is generous: only a reading that never grows fails.
        var clock = Stopwatch.StartNew();
        TimeSpan? after;
        do
        {
            for (var spin = 0; spin < 100_000; spin++)
            {
                Thread.SpinWait(10);
            }

            after = ProcessCpu.OfSelf();
        }
        while (after < before.Value + TimeSpan.FromMilliseconds(50) && clock.Elapsed < TimeSpan.FromSeconds(60));

        after.ShouldNotBeNull();
        (after.Value - before.Value).ShouldBeGreaterThanOrEqualTo(TimeSpan.FromMilliseconds(50));
        ProcessCpu.MillisecondsPerWorkflow(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(3), 1000).ShouldBe(2);
        ProcessCpu.Of(int.MaxValue).ShouldBeNull();
    }

    [Fact]
    public void Process_memory_is_the_peak_resident_set_from_proc()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "/proc/<pid>/status exists on Linux only");
        var before = ProcessMemory.PeakMegabytes(Environment.ProcessId);
        before.ShouldNotBeNull();

        // Touched page by page, a block that lifts the resident set 64 MB above the peak so far (the tests that ran
        // before in this process may have set it well above what is resident now): the peak must take it in.
        var block = new byte[(int)((Math.Max(0, before.Value - ProcessMemory.ResidentMegabytes(Environment.ProcessId)!.Value) + 64) * 1024 * 1024)];
        for (var page = 0; page < block.Length; page += 4096)
        {
            block[page] = 1;
        }

        var after = ProcessMemory.PeakMegabytes(Environment.ProcessId);
        GC.KeepAlive(block);

        after.ShouldNotBeNull();
        after.Value.ShouldBeGreaterThanOrEqualTo(before.Value + 60);
        ProcessMemory.PeakMegabytes(int.MaxValue).ShouldBeNull();
    }

    private static ShootoutReport Report(double serviceCpu, double baselineCpu, double perSecond, double pgbench)
    {
        var machine = new MachineInfo("host", 2, 4096, "cpu", "linux", ".NET 10", []);
        var header = new ReportHeader(DateTimeOffset.UnixEpoch, "cmd", machine, 1000, 100, 100, 0, []);
        var audit = new AuditResult(1000, 0, 0, 0, 0, 0, 0, 0, []);
        VariantResult Row(string variant, double wfs, double? raw) => new(
            $"postgres/relational/{variant}", "postgres", "Relational", variant, "variant 1", "d", true, "sync", false, 1000, 100,
            1000 / wfs, wfs, 1000, [], [], audit, raw, raw is { } r ? wfs / r : null, null, null, null);
        return new ShootoutReport(header,
            [
                Row("v1-shared-uow", perSecond, perSecond * 2) with { ServiceCpuMsPerWorkflow = serviceCpu, DriverCpuMsPerWorkflow = 0.1, RawCpuMsPerWorkflow = 0.4, ServicePeakMegabytes = 120.4 },
                Row("v1-shared-uow@de2015c", 300, null) with { ServiceCpuMsPerWorkflow = baselineCpu, ServiceBuild = "de2015c", ServicePeakMegabytes = 150 },
            ],
            [new ReferenceResult("postgres", "pgbench (plain per-statement SQL)", pgbench, "detail")],
            []);
    }
}
