using System.Diagnostics;
using System.Globalization;
using Spectre.Console;

namespace OrderService.Load.Scenarios;

/// <summary>
/// The shoot-out's line beside NBomber's console: every few seconds, a closed scenario's workflows done and its pace,
/// and for the whole shoot-out the row it is on, the elapsed time and the time left (<see cref="RunEstimate"/>).
/// NBomber's live table counts against its scenario's duration, which a run with a fixed number of workflows does
/// not have. On a terminal NBomber's live table owns the screen, so these lines go to logs (CI, redirected output) only.
/// </summary>
public static class LiveProgress
{
    public static async Task<T> TrackAsync<T>(string label, ClosedScenario scenario, Task<T> running, RunEstimate? overall = null)
    {
        if (IsInteractive)
        {
            return await running.ConfigureAwait(false);
        }

        var clock = Stopwatch.StartNew();
        var lastLine = TimeSpan.Zero;
        while (!running.IsCompleted)
        {
            await Task.WhenAny(running, Task.Delay(500)).ConfigureAwait(false);
            if (clock.Elapsed - lastLine >= TimeSpan.FromSeconds(5) && !running.IsCompleted)
            {
                lastLine = clock.Elapsed;
                Console.WriteLine($"  {label}: {Describe(scenario, clock.Elapsed, overall)}");
            }
        }

        return await running.ConfigureAwait(false);
    }

    public static bool IsInteractive =>
        !Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive && Environment.GetEnvironmentVariable("CI") is null;

    private static string Describe(ClosedScenario scenario, TimeSpan elapsed, RunEstimate? overall)
    {
        var done = scenario.Budget.Finished;
        var rate = elapsed.TotalSeconds > 0 ? done / elapsed.TotalSeconds : 0;
        var line = string.Create(CultureInfo.InvariantCulture, $"{done}/{scenario.Budget.Limit} wf, {rate:F0} wf/s");
        return overall is null ? line : $"{line} | {overall}";
    }
}
