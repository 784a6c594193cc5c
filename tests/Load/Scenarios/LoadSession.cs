using NBomber.Contracts;
using NBomber.Contracts.Stats;
using NBomber.CSharp;
using Serilog.Events;

namespace OrderService.Load.Scenarios;

/// <summary>
/// One NBomber session: registers the scenarios, points NBomber's reports and log at a folder of the run's own, and
/// runs them. NBomber's runner blocks its caller, so it runs on the thread pool while the harness watches the budget.
/// </summary>
public static class LoadSession
{
    /// <summary>The file name (without extension) of NBomber's reports in each session folder.</summary>
    public const string ReportFileName = "nbomber";

    // NBomber's console (Spectre.Console live displays) and its Serilog logger are process-wide: two sessions at once
    // in one process (test classes in parallel) throw "interactive functions concurrently". One at a time, then.
    private static readonly SemaphoreSlim OneAtATime = new(1, 1);

    /// <param name="folder">NBomber's report folder; NBomber empties it first and writes its log there too.</param>
    /// <param name="reports">NBomber's html, md, csv and txt reports (off for warm-ups: nobody reads them).</param>
    /// <param name="config">NBomber's JSON config (load simulations per scenario, report settings), or null.</param>
    public static Task<NodeStats> RunAsync(string folder, string testName, bool reports, IReadOnlyList<ScenarioProps> scenarios, string? config = null)
    {
        NBomberConsole.Install();
        var context = NBomberRunner.RegisterScenarios([.. scenarios])
            .WithTestSuite("orderservice")
            .WithTestName(testName)
            .WithReportFolder(folder)
            .WithReportFileName(ReportFileName)
            // Warnings and errors only: NBomber's default (Debug) writes a line per event to its log file.
            .WithMinimumLogLevel(LogEventLevel.Warning);
        context = reports
            ? context.WithReportFormats(ReportFormat.Html, ReportFormat.Md, ReportFormat.Csv, ReportFormat.Txt)
            : context.WithoutReports();
        if (config is not null)
        {
            context = context.LoadConfig(config);
        }

        return RunAloneAsync(context);
    }

    private static async Task<NodeStats> RunAloneAsync(NBomber.Contracts.NBomberContext context)
    {
        await OneAtATime.WaitAsync().ConfigureAwait(false);
        try
        {
            // NBomber's Run blocks until the session ends: a thread of its own, not one of the pool its copies run on.
            return await Task.Factory.StartNew(() => context.Run(), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default)
                .ConfigureAwait(false);
        }
        finally
        {
            OneAtATime.Release();
        }
    }

    /// <summary>NBomber's statistics of one scenario of the session.</summary>
    public static ScenarioStats Scenario(this NodeStats stats, string name) => stats.GetScenarioStats(name);
}
