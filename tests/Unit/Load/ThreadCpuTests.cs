using System.Text;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class ThreadCpuTests
{
    [Theory]
    [InlineData(".NET TP Worker", ThreadCpu.ThreadPool)]
    [InlineData(".NET TP Gate", ThreadCpu.ThreadPool)]
    [InlineData(".NET Sockets", ThreadCpu.Sockets)]
    [InlineData(".NET Server GC", ThreadCpu.Gc)]
    [InlineData(".NET BGC", ThreadCpu.Gc)]
    [InlineData(".NET Tiered Com", ThreadCpu.Jit)]
    [InlineData("sqlite-group-co", ThreadCpu.StoreWriter)]
    [InlineData("dotnet", ThreadCpu.Other)]
    [InlineData("Kestrel Timer", ThreadCpu.Other)]
    public void A_thread_s_kind_follows_the_name_dotnet_gives_it(string name, string kind) => ThreadCpu.KindOf(name).ShouldBe(kind);

    [Fact]
    public void This_runtime_names_its_pool_threads_as_the_kinds_expect()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "/proc/<pid>/task exists on Linux only");

        // The kinds are read from the names the runtime gives its threads: if a runtime renames them, the report's
        // split would silently move to "other". A pool work item makes sure a worker exists.
        ThreadPool.UnsafeQueueUserWorkItem(_ => Thread.Sleep(200), null);
        var snapshot = ThreadCpu.Of(Environment.ProcessId);

        snapshot.ShouldNotBeNull();
        snapshot.Threads.Values.ShouldContain(thread => ThreadCpu.KindOf(thread.Name) == ThreadCpu.ThreadPool, string.Join(", ", snapshot.Threads.Values.Select(t => t.Name).Distinct()));
        ThreadCpu.Of(int.MaxValue).ShouldBeNull();
    }

    [Fact]
    public void A_thread_s_cpu_lands_under_its_kind_and_a_thread_that_ended_under_ended_threads()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "/proc/<pid>/task exists on Linux only");
        using var running = new ManualResetEventSlim();
        using var stop = new ManualResetEventSlim();

        // "sqlite-group-commit" is the SQLite store's writer's name: this thread stands in for it.
        var writer = new Thread(() => { Burn(); running.Set(); stop.Wait(); }) { IsBackground = true, Name = "sqlite-group-commit" };
        var before = ThreadCpu.Of(Environment.ProcessId);
        writer.Start();
        running.Wait(TestContext.Current.CancellationToken);
        var endedId = 0;
        var ended = new Thread(() => { endedId = OwnThreadId(); Burn(); }) { IsBackground = true, Name = "burn-and-end" };
        ended.Start();
        ended.Join();

        // Join returns when the managed thread is done; the OS thread may still be leaving /proc for a moment.
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (Directory.Exists($"/proc/self/task/{endedId}") && clock.Elapsed < TimeSpan.FromSeconds(10))
        {
            Thread.Sleep(10);
        }

        var after = ThreadCpu.Of(Environment.ProcessId);
        stop.Set();

        var byKind = ThreadCpu.MillisecondsPerWorkflow(before, after, workflows: 1);

        byKind.ShouldNotBeNull();
        byKind.Keys.ShouldBe(ThreadCpu.Kinds, ignoreOrder: true);
        byKind[ThreadCpu.StoreWriter].ShouldBeGreaterThanOrEqualTo(50);
        byKind[ThreadCpu.Ended].ShouldBeGreaterThanOrEqualTo(50);
        ThreadCpu.MillisecondsPerWorkflow(before, null, 1).ShouldBeNull();
    }

    [Fact]
    public void The_report_splits_each_row_s_service_cpu_and_marks_a_jit_still_compiling()
    {
        var settled = Kinds(jit: 0.002);
        var compiling = Kinds(jit: 0.05);

        ServiceThreads.Compiling(settled).ShouldBeNull();
        ServiceThreads.Compiling(compiling).ShouldNotBeNull().ShouldBeGreaterThan(ServiceThreads.CompilingShare);
        ServiceThreads.Compiling(null).ShouldBeNull();

        var md = new StringBuilder();
        ServiceThreads.Append(md, Report(("v1-shared-uow", settled), ("v1-shared-uow@abc", compiling)));
        var text = md.ToString();

        text.ShouldContain("## Where the service's CPU went");
        text.ShouldContain("| postgres | Relational | v1-shared-uow | 0.300 | 0.250 | 0.020 | 0.010 | 0.002 | 0.000 | 0.018 | 0.000 |");
        text.ShouldContain("| postgres | Relational | v1-shared-uow@abc | 0.300 | 0.250 | 0.020 | 0.010 | **0.050** | 0.000 | 0.018 | 0.000 |");

        var none = new StringBuilder();
        ServiceThreads.Append(none, Report(("v1-shared-uow", null)));
        none.ToString().ShouldBeEmpty("older reports and replica rows have no split: no section");
    }

    // Busy work until this thread has used 60 ms of CPU (/proc/thread-self: a few 10 ms ticks), capped in wall time
    // for a busy machine: only a reading that never grows fails.
    private static void Burn()
    {
        var start = OwnTicks();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (OwnTicks() < start + 6 && clock.Elapsed < TimeSpan.FromSeconds(30))
        {
            for (var spin = 0; spin < 1000; spin++)
            {
                Thread.SpinWait(100);
            }
        }
    }

    // /proc/thread-self links to "<pid>/task/<tid>".
    private static int OwnThreadId() =>
        int.Parse(Path.GetFileName(new DirectoryInfo("/proc/thread-self").LinkTarget!), System.Globalization.CultureInfo.InvariantCulture);

    private static long OwnTicks()
    {
        var stat = File.ReadAllText("/proc/thread-self/stat");
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return long.Parse(fields[11], System.Globalization.CultureInfo.InvariantCulture) + long.Parse(fields[12], System.Globalization.CultureInfo.InvariantCulture);
    }

    private static Dictionary<string, double> Kinds(double jit) => new()
    {
        [ThreadCpu.ThreadPool] = 0.25,
        [ThreadCpu.Sockets] = 0.02,
        [ThreadCpu.Gc] = 0.01,
        [ThreadCpu.Jit] = jit,
        [ThreadCpu.StoreWriter] = 0,
        [ThreadCpu.Other] = 0.018,
        [ThreadCpu.Ended] = 0,
    };

    private static ShootoutReport Report(params (string Variant, Dictionary<string, double>? ByThread)[] rows)
    {
        var machine = new MachineInfo("host", 2, 4096, "cpu", "linux", ".NET 10", []);
        var header = new ReportHeader(DateTimeOffset.UnixEpoch, "cmd", machine, 1000, 100, 100, 0, []);
        var audit = new AuditResult(1000, 0, 0, 0, 0, 0, 0, 0, []);
        return new ShootoutReport(header,
            [.. rows.Select(r => new VariantResult(
                $"postgres/relational/{r.Variant}", "postgres", "Relational", r.Variant, "variant 1", "d", true, "sync", false, 1000, 100,
                1, 1000, 1000, [], [], audit, null, null, null, null, null)
            {
                ServiceCpuMsPerWorkflow = 0.3,
                ServiceCpuByThread = r.ByThread,
            })],
            [], []);
    }
}
