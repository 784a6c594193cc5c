using System.Globalization;
using OrderService.Load.Scenarios;

namespace OrderService.Load.Shootout;

/// <summary>What <c>--target</c> runs: the workflow scenario against a service someone else started.</summary>
public sealed record TargetOptions(Uri Target, int Workflows, int Concurrency, TimeSpan? Duration, string? Config, string OutputDirectory)
{
    /// <summary>The one line --plan-only prints: what would run, and where NBomber's reports would go.</summary>
    public string Plan()
    {
        var load = Config is not null ? $"the load simulations of {Config}"
            : Duration is { } d ? Invariant($"{Concurrency} copies for {d.TotalSeconds:F0} s")
            : Invariant($"{Workflows:N0} workflows at {Concurrency} copies");
        return $"Plan (--plan-only): load test of {Target} with {load}; NBomber's reports into {OutputDirectory}";
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

    public static async Task<int> RunAsync(TargetOptions options, CancellationToken cancellationToken)
    {
        using var http = OrderApiClient.CreateHttpClient(options.Target, options.Concurrency + 4);
        if (await WhyNotReadyAsync(http, cancellationToken).ConfigureAwait(false) is { } reason)
        {
            Console.Error.WriteLine($"{options.Target} is not ready: {reason}");
            return NotReady;
        }

        // The run's own tag keeps its customers and Idempotency-Keys apart from any earlier run against the same service.
        var tag = "lt" + DateTime.UtcNow.ToString("yyMMddHHmmss", CultureInfo.InvariantCulture);
        var unbounded = options.Duration is not null || options.Config is not null;
        var ledger = new RunLedger(tag, unbounded ? long.MaxValue : options.Workflows);
        var workflow = new HttpWorkflow(new OrderApiClient(http), ledger, new WorkflowSettings(0, TimeSpan.Zero))
            .Workflow(options.Concurrency, cancellationToken, options.Duration ?? (unbounded ? ClosedScenario.Unbounded : null));
        Directory.CreateDirectory(options.OutputDirectory);
        var stats = await LoadSession.RunAsync(options.OutputDirectory, "target", reports: true, [workflow.Build()], options.Config).ConfigureAwait(false);
        var result = ScenarioResult.From(stats.Scenario(workflow.Name), workflow.Elapsed);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{result.OkIterations:N0} workflows completed, {result.FailedIterations:N0} failed, {result.WorkflowsPerSecond:F1} wf/s. NBomber's reports: {options.OutputDirectory}"));
        return result.FailedIterations == 0 && (unbounded || result.OkIterations == options.Workflows) ? 0 : 1;
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
