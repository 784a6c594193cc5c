using OrderService.Load.Scenarios;
using Shouldly;
using Spectre.Console;
using Spectre.Console.Rendering;
using Xunit;

namespace OrderService.Unit.Tests.Load;

/// <summary>
/// NBomber's live table refreshes while its log writes to the same console. On Spectre.Console's own console the two
/// take its locks in opposite orders and deadlock within a few hundred rounds (spectreconsole/spectre.console#435);
/// the console the harness installs must not.
/// </summary>
[Collection(nameof(LiveConsoleCollection))]
public sealed class HookFirstConsoleTests
{
    [Fact]
    public async Task A_live_table_refreshes_while_another_thread_writes_without_deadlock()
    {
        using var output = new StringWriter();
        var console = Interactive(output);
        var table = new Table().AddColumn("step").AddRow("create");

        var live = Task.Run(() => console.Live(table).Start(context =>
        {
            for (var round = 0; round < 5_000; round++)
            {
                context.Refresh();
            }
        }), TestContext.Current.CancellationToken);
        var logging = Task.Run(() =>
        {
            var lines = 0;
            while (!live.IsCompleted)
            {
                console.Write(new Text($"log line {lines++}\n"));
            }

            return lines;
        }, TestContext.Current.CancellationToken);

        await Task.WhenAll(live, logging).WaitAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken);
        (await logging).ShouldBeGreaterThan(0, "the log wrote while the table refreshed");
        output.ToString().ShouldContain("log line 0");
    }

    [Fact]
    public async Task A_second_live_display_waits_for_the_first_instead_of_throwing()
    {
        using var output = new StringWriter();
        var console = Interactive(output);
        var firstStarted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var releaseFirst = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        var first = console.Status().StartAsync("first", async _ =>
        {
            firstStarted.SetResult();
            await releaseFirst.Task;
        });
        await firstStarted.Task.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken);
        var second = console.Status().StartAsync("second", _ => Task.CompletedTask);
        await Task.Delay(100, TestContext.Current.CancellationToken);
        second.IsCompleted.ShouldBeFalse("the second display waits while the first runs");

        releaseFirst.SetResult();
        await Task.WhenAll(first, second).WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken);
    }

    [Fact]
    public void Hooks_attach_to_the_front_console_and_see_every_write()
    {
        using var output = new StringWriter();
        var console = new HookFirstConsole(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(output) }));
        var hook = new CountingHook();
        console.Pipeline.Attach(hook);

        console.Write(new Text("one"));
        console.Write(new Text("two"));

        hook.Calls.ShouldBe(2);
        output.ToString().ShouldBe("onetwo");
    }

    private static HookFirstConsole Interactive(StringWriter output) => new(AnsiConsole.Create(new AnsiConsoleSettings
    {
        Ansi = AnsiSupport.Yes,
        Interactive = InteractionSupport.Yes,
        Out = new AnsiConsoleOutput(output),
    }));

    private sealed class CountingHook : IRenderHook
    {
        public int Calls { get; private set; }

        public IEnumerable<IRenderable> Process(RenderOptions options, IEnumerable<IRenderable> renderables)
        {
            Calls++;
            return renderables;
        }
    }
}
