using System.Globalization;
using Spectre.Console;

namespace OrderService.Load.Driver;

/// <summary>
/// Shows a run's progress while it runs: a Spectre.Console progress bar on a terminal, a plain line
/// every few seconds otherwise (CI logs, redirected output), so logs stay readable. Given the whole run's
/// <see cref="RunEstimate"/>, each line also says which row this is, the time since the start and the time left.
/// </summary>
public static class LiveProgress
{
    public static async Task<T> TrackAsync<T>(string label, LoadRun run, Task<T> running, RunEstimate? overall = null)
    {
        if (IsInteractive)
        {
            await AnsiConsole.Progress()
                .AutoClear(false)
                .HideCompleted(false)
                .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new ElapsedTimeColumn())
                .StartAsync(async context =>
                {
                    var task = context.AddTask(Markup.Escape(label), maxValue: Math.Max(1, run.Progress.Planned));
                    while (!running.IsCompleted)
                    {
                        Update(task, label, run, overall);
                        await Task.WhenAny(running, Task.Delay(250)).ConfigureAwait(false);
                    }

                    Update(task, label, run, overall);
                }).ConfigureAwait(false);
            return await running.ConfigureAwait(false);
        }

        var lastLine = TimeSpan.Zero;
        while (!running.IsCompleted)
        {
            await Task.WhenAny(running, Task.Delay(500)).ConfigureAwait(false);
            if (run.Elapsed - lastLine >= TimeSpan.FromSeconds(5) && !running.IsCompleted)
            {
                lastLine = run.Elapsed;
                Console.WriteLine($"  {label}: {Describe(run, overall)}");
            }
        }

        return await running.ConfigureAwait(false);
    }

    public static bool IsInteractive =>
        !Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive && Environment.GetEnvironmentVariable("CI") is null;

    private static void Update(ProgressTask task, string label, LoadRun run, RunEstimate? overall)
    {
        task.Value = run.Progress.Done;
        task.Description = Markup.Escape($"{label} {Describe(run, overall)}");
    }

    private static string Describe(LoadRun run, RunEstimate? overall)
    {
        var (done, planned) = run.Progress;
        var seconds = run.Elapsed.TotalSeconds;
        var rate = seconds > 0 ? done / seconds : 0;
        var line = string.Create(CultureInfo.InvariantCulture, $"{done}/{planned} wf, {rate:F0} wf/s");
        return overall is null ? line : $"{line} | {overall}";
    }
}
