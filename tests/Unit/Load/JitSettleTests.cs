using System.Diagnostics;
using CliWrap;
using OrderService.Load.Shootout;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class JitSettleTests
{
    [Fact]
    public async Task The_wait_lasts_while_a_jit_thread_burns_cpu_and_ends_a_quiet_period_after_it()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "/proc/<pid>/task exists on Linux only");

        // A thread named as the runtime names its tiering thread, busy for 1.5 s: the wait must outlast it.
        var busyFor = TimeSpan.FromSeconds(1.5);
        var compiling = new Thread(() =>
        {
            var clock = Stopwatch.StartNew();
            while (clock.Elapsed < busyFor)
            {
                Thread.SpinWait(1000);
            }
        })
        { IsBackground = true, Name = ".NET Tiered Compilation Worker" };
        compiling.Start();

        var waited = await JitSettle.WaitAsync([Environment.ProcessId], TestContext.Current.CancellationToken);
        compiling.Join();

        waited.ShouldBeGreaterThanOrEqualTo(busyFor + JitSettle.Quiet - TimeSpan.FromMilliseconds(100));
        waited.ShouldBeLessThan(JitSettle.Cap);
    }

    [Fact]
    public async Task A_process_without_a_jit_settles_after_one_quiet_period()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "/proc/<pid>/task exists on Linux only");
        await using var sleeper = BackgroundProcess.Start(Cli.Wrap("/bin/sleep").WithArguments(["30"]));
        try
        {
            var waited = await JitSettle.WaitAsync([sleeper.Id], TestContext.Current.CancellationToken);

            waited.ShouldBeGreaterThanOrEqualTo(JitSettle.Quiet);
            waited.ShouldBeLessThan(JitSettle.Quiet + TimeSpan.FromSeconds(5));
        }
        finally
        {
            await sleeper.KillAsync();
        }
    }
}
