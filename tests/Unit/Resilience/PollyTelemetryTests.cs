using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderService.Data;
using OrderService.Data.Resilience;
using Polly;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Resilience;

/// <summary>
/// Polly's telemetry is on for the store pipeline: a routine retry is logged at Debug, not as a warning, and a result
/// by its type, not by the order it holds.
/// </summary>
public sealed class PollyTelemetryTests
{
    [Fact]
    public async Task A_retry_after_a_rolled_back_conflict_is_logged_by_Polly_at_Debug_only()
    {
        var attempts = 0;

        var logs = await PollyLogsOfAsync("test", (pipeline, context) => pipeline.ExecuteAsync(_ => ++attempts == 1
            ? throw new TransientStoreFault(new InvalidOperationException("serialization failure"), StoreFault.RolledBack)
            : ValueTask.CompletedTask, context));

        attempts.ShouldBe(2);
        logs.Lines.ShouldContain(l => l.Level == LogLevel.Debug && l.Text.Contains("OnRetry", StringComparison.Ordinal), "Polly's own events are logged");
        logs.Lines.Where(l => l.Level >= LogLevel.Warning).ShouldBeEmpty("a retry is routine under contention: the meters count it");
    }

    [Fact]
    public async Task Polly_logs_a_result_by_its_type_not_by_the_order_it_holds()
    {
        var logs = await PollyLogsOfAsync("get", async (pipeline, context) =>
            await pipeline.ExecuteAsync(static _ => ValueTask.FromResult(new PrivateRow("customer-secret-42")), context));

        logs.Lines.ShouldContain(l => l.Text.Contains(nameof(PrivateRow), StringComparison.Ordinal), "the execution is logged, with the result's type");
        logs.Lines.ShouldNotContain(l => l.Text.Contains("customer-secret-42", StringComparison.Ordinal));
    }

    /// <summary>Runs one call through the SQLite store's pipeline, as the store registers it, and returns what Polly logged.</summary>
    private static async Task<RecordingLoggerProvider> PollyLogsOfAsync(string operation, Func<ResiliencePipeline, ResilienceContext, ValueTask> call)
    {
        var logs = new RecordingLoggerProvider(static category => category.StartsWith("Polly", StringComparison.Ordinal));
        var services = new ServiceCollection().AddLogging(logging => logging.SetMinimumLevel(LogLevel.Trace).AddProvider(logs));
        services.AddStoreResilience(new ConfigurationBuilder().Build());
        await using var provider = services.BuildServiceProvider();
        var context = ResilienceContextPool.Shared.Get(TestContext.Current.CancellationToken);
        context.Properties.Set(StorePipeline.Facts, new StoreCallFacts(operation, RerunSafety.Always));

        await call(StorePipeline.For(provider, StoreProvider.Sqlite), context);
        ResilienceContextPool.Shared.Return(context);
        return logs;
    }

    private sealed record PrivateRow(string CustomerId);
}
