using System.Globalization;
using OrderService.Load.Scenarios;
using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>What <c>--target</c> runs: the workflow scenario against a service someone else started.</summary>
public sealed record TargetOptions(Uri Target, int Workflows, int Concurrency, TimeSpan? Duration, string? Config, string OutputDirectory)
{
    /// <summary>The one line --plan-only prints: what would run, and where NBomber's reports would go.</summary>
    public string Plan()
    {
        var config = Config is null ? null : NBomberConfig.Load(Config);
        var load = config?.SetsLoad(HttpWorkflow.ScenarioName) == true ? $"the load simulations of {Config}"
            : Duration is { } d ? Invariant($"{Concurrency} copies for {d.TotalSeconds:F0} s")
            : Invariant($"{Workflows:N0} workflows at {Concurrency} copies");
        return $"Plan (--plan-only): load test of {Target} with {load}; "
            + $"NBomber's reports into a new folder in {config?.ReportFolder ?? OutputDirectory}";
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}

/// <summary>
/// A user's load test of any running OrderService, NBomber's way: the same workflow scenario as the shoot-out (create,
/// pay, ship, complete as steps, a fresh Idempotency-Key per workflow and If-Match from each reply), with no store to
/// bring up and no audit. NBomber prints its statistics and writes its reports into the output folder.
/// </summary>
public static class TargetRun
{
    public const int NotReady = 2;

    /// <summary>After Ctrl+C: no workflow starts, requests in flight are cancelled, the reports are written.</summary>
    public const int Cancelled = 130;

    public static async Task<int> RunAsync(TargetOptions options, CancellationToken cancellationToken)
    {
        var config = options.Config is null ? null : NBomberConfig.Load(options.Config);

        // Without load settings for the scenario in the config, --workflows or --duration sets the load.
        var configured = config?.SetsLoad(HttpWorkflow.ScenarioName) == true;
        var copies = configured ? Math.Max(1, config!.Copies(HttpWorkflow.ScenarioName)) : options.Concurrency;
        using var http = OrderApi.CreateHttpClient(options.Target, copies + 4);
        string? reason;
        try
        {
            reason = await WhyNotReadyAsync(http, cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return Cancelled;
        }

        if (reason is not null)
        {
            Console.Error.WriteLine($"{options.Target} is not ready: {reason}");
            return NotReady;
        }

        // The run's own tag keeps its customers and Idempotency-Keys apart from any earlier run against the same service.
        var tag = "lt" + DateTime.UtcNow.ToString("yyMMddHHmmss", CultureInfo.InvariantCulture);
        var unbounded = options.Duration is not null || configured;
        var ledger = new RunLedger(tag, unbounded ? long.MaxValue : options.Workflows);
        var workflow = new HttpWorkflow(new OrderApi(http), ledger, new WorkflowSettings(0, TimeSpan.Zero))
            .Workflow(copies, cancellationToken, options.Duration ?? (unbounded ? ClosedScenario.Unbounded : null));
        var folder = RunFolder.Create(config?.ReportFolder ?? options.OutputDirectory, LoadSession.ReportFileName);
        Console.WriteLine($"NBomber's reports: {folder}");
        var configFile = config?.WriteFor(workflow.Name, folder, ClosedScenario.MaxFailCount);
        ScenarioResult result;
        try
        {
            await using var closeOnCancel = cancellationToken.Register(workflow.Budget.Close).ConfigureAwait(false);
            var stats = await LoadSession.RunAsync(folder, "target", reports: true, [workflow.Build()], configFile)
                .ConfigureAwait(false);
            result = ScenarioResult.From(stats.Scenario(workflow.Name), workflow.Elapsed);
        }
        finally
        {
            if (configFile is not null)
            {
                File.Delete(configFile);
            }
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{result.OkIterations:N0} workflows completed, {result.FailedIterations:N0} failed, "
            + $"{result.WorkflowsPerSecond:F1} wf/s. NBomber's reports: {folder}"));
        return cancellationToken.IsCancellationRequested ? Cancelled
            : result.FailedIterations == 0 && (unbounded || result.OkIterations == options.Workflows) ? 0 : 1;
    }

    private static async Task<string?> WhyNotReadyAsync(HttpClient http, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(10));
        try
        {
            using var reply = await http.GetAsync(new Uri("health/ready", UriKind.Relative), timeout.Token).ConfigureAwait(false);
            return reply.IsSuccessStatusCode ? null : $"/health/ready answered {(int)reply.StatusCode}";
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
        {
            return $"/health/ready did not answer ({exception.GetType().Name}: {exception.Message})";
        }
    }
}
