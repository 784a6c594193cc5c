using System.Diagnostics;
using System.Text;
using CliWrap;
using OrderService.Load.Shootout;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class MachineCpuTests
{
    [Fact]
    public async Task A_process_tree_counts_its_live_children_and_the_ones_that_ended()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "/proc exists on Linux only");
        var self = Environment.ProcessId;
        var endedBefore = ProcessCpu.OfEndedChildrenOfSelf();
        endedBefore.ShouldNotBeNull();

        // A child that burns CPU until killed: while it runs, the tree holds its CPU beside this process's own.
        var busy = Cli.Wrap("/bin/sh").WithArguments(["-c", "while :; do :; done"]);
        await using var child = BackgroundProcess.Start(busy);
        try
        {
            var clock = Stopwatch.StartNew();
            while (ProcessCpu.Of(child.Id) < TimeSpan.FromMilliseconds(60) && clock.Elapsed < TimeSpan.FromSeconds(30))
            {
                await Task.Delay(20, TestContext.Current.CancellationToken);
            }

            var own = ProcessCpu.Of(self)!.Value;
            var childCpu = ProcessCpu.Of(child.Id)!.Value;
            var tree = ProcessCpu.OfTree(self);

            childCpu.ShouldBeGreaterThanOrEqualTo(TimeSpan.FromMilliseconds(60));
            tree.ShouldNotBeNull();
            tree.Value.ShouldBeGreaterThanOrEqualTo(own + childCpu, $"read after both, the tree holds at least this process ({own}) and its child ({childCpu})");
        }
        finally
        {
            await child.KillAsync();
        }

        // Waited for, the child's CPU moves to this process's ended children (as pgbench's does when it exits).
        var endedAfter = ProcessCpu.OfEndedChildrenOfSelf();
        endedAfter.ShouldNotBeNull();
        (endedAfter.Value - endedBefore.Value).ShouldBeGreaterThanOrEqualTo(TimeSpan.FromMilliseconds(60));
        ProcessCpu.OfTree(int.MaxValue).ShouldBeNull();
    }

    [Fact]
    public void The_report_sets_each_row_s_cpu_beside_pgbench_s_and_predicts_the_ratio_from_it()
    {
        var report = Report(
            [Row("v1-shared-uow", "postgres", perSecond: 2000, service: 0.3, driver: 0.2, database: 0.3), Row("v1-shared-uow", "sqlite", perSecond: 3000, service: 0.4, driver: 0.2, database: null)],
            new ReferenceResult("postgres", "pgbench (plain per-statement SQL)", 1000, "d") { ClientCpuMsPerWorkflow = 0.25, DatabaseCpuMsPerWorkflow = 1.15 });

        MachineCpu.Sum(report.Rows[0]).ShouldNotBeNull().ShouldBe(0.8, 1e-9);
        MachineCpu.Sum(report.References[0]).ShouldNotBeNull().ShouldBe(1.4, 1e-9);

        var md = new StringBuilder();
        MachineCpu.Append(md, report);
        var text = md.ToString();

        text.ShouldContain("## The machine's CPU per workflow");
        text.ShouldContain("| postgres | Relational | v1-shared-uow | 0.300 | 0.200 | 0.300 | 0.800 | 1.75 | 2.00 |");
        text.ShouldContain("| postgres | – | pgbench | – | 0.250 | 1.150 | 1.400 | | |");
        text.ShouldNotContain("| sqlite |", Case.Sensitive, "SQLite's database runs inside the service: no separate figure");

        var none = new StringBuilder();
        MachineCpu.Append(none, Report([report.Rows[1]], new ReferenceResult("postgres", "pgbench (failed)", 0, "d")));
        none.ToString().ShouldBeEmpty("no database CPU measured: no section");
    }

    private static VariantResult Row(string variant, string store, double perSecond, double service, double driver, double? database) =>
        new($"{store}/relational/{variant}", store, "Relational", variant, "variant 1", "d", true, "sync", false, 1000, 100,
            1000 / perSecond, perSecond, 1000, [], [], new AuditResult(1000, 0, 0, 0, 0, 0, 0, 0, []), null, null, null, null, null)
        {
            ServiceCpuMsPerWorkflow = service,
            DriverCpuMsPerWorkflow = driver,
            DatabaseCpuMsPerWorkflow = database,
        };

    private static ShootoutReport Report(List<VariantResult> rows, ReferenceResult reference)
    {
        var machine = new MachineInfo("host", 2, 4096, "cpu", "linux", ".NET 10", []);
        var header = new ReportHeader(DateTimeOffset.UnixEpoch, "cmd", machine, 1000, 100, 100, 0, []);
        return new ShootoutReport(header, rows, [reference], []);
    }
}
