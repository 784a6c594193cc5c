using System.Diagnostics;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class ShellTests
{
    [Fact]
    public async Task A_tool_s_exit_code_and_both_of_its_streams_come_back_in_one_output()
    {
        var result = await Shell.RunAsync("sh", ["-c", "echo to-out; echo to-err >&2; exit 3"], TimeSpan.FromSeconds(30),
            new Dictionary<string, string> { ["SHELL_TEST"] = "x" });

        result.ExitCode.ShouldBe(3);
        result.Output.ShouldContain("to-out");
        result.Output.ShouldContain("to-err");
        Should.Throw<InvalidOperationException>(() => result.EnsureSuccess("sh")).Message.ShouldContain("exit code 3");
        (await Shell.RunAsync("sh", ["-c", "echo $SHELL_TEST"], TimeSpan.FromSeconds(30), new Dictionary<string, string> { ["SHELL_TEST"] = "passed" }))
            .Output.Trim().ShouldBe("passed");
    }

    [Fact]
    public async Task A_tool_that_outlives_its_time_out_is_killed_and_reported()
    {
        var clock = Stopwatch.StartNew();

        var timeout = await Should.ThrowAsync<TimeoutException>(() => Shell.RunAsync("sleep", ["30"], TimeSpan.FromMilliseconds(300)));

        timeout.Message.ShouldContain("sleep 30");
        clock.Elapsed.ShouldBeLessThan(TimeSpan.FromSeconds(20));
    }
}
