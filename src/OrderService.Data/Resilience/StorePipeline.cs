using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Polly;
using Polly.CircuitBreaker;
using Polly.Registry;
using Polly.Retry;
using Polly.Telemetry;
using Polly.Timeout;

namespace OrderService.Data.Resilience;

/// <summary>
/// One resilience pipeline per store: total timeout → retry → circuit breaker → attempt timeout → the store.
/// </summary>
public static class StorePipeline
{
    internal static readonly ResiliencePropertyKey<StoreCallFacts> Facts = new("orderservice.store.call");

    public static string KeyFor(StoreProvider provider) => "order-store-" + StoreTelemetry.SystemName(provider);

    /// <summary>The Resilience section, validated at start-up, and each store's pipeline.</summary>
    public static IServiceCollection AddStoreResilience(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddSettings<ResilienceOptions>(ResilienceOptions.SectionName, static (c, o) => c.Bind(o),
            new ResilienceOptionsValidator(), configuration);

        // Polly logs the circuit's and the timeouts' events; a retry and the attempt before it are routine under
        // contention: Debug, not warnings.
        services.Configure<TelemetryOptions>(static telemetry =>
        {
            telemetry.SeverityProvider = static args =>
                args.Event.EventName is "OnRetry" or "ExecutionAttempt" ? ResilienceEventSeverity.Debug
                    : args.Event.Severity;
            // By type only: a result's text would put the order's customer and lines in the log.
            telemetry.ResultFormatter = static (_, result) => result?.GetType().Name;
        });

        foreach (var provider in Enum.GetValues<StoreProvider>())
        {
            var system = StoreTelemetry.SystemName(provider);
            services.AddResiliencePipeline(KeyFor(provider), (pipeline, context) =>
            {
                var options = context.ServiceProvider.GetRequiredService<IOptions<ResilienceOptions>>().Value;
                var circuit = new CircuitBreakerStateProvider();
                context.OnPipelineDisposed(StoreTelemetry.ObserveCircuit(system, () => (int)circuit.CircuitState)
                    .Dispose);
                Configure(pipeline, options, system, circuit);
            });
        }

        return services;
    }

    /// <summary>The store's pipeline from the registry (built on first use).</summary>
    public static ResiliencePipeline For(IServiceProvider services, StoreProvider provider) =>
        services.GetRequiredService<ResiliencePipelineProvider<string>>().GetPipeline(KeyFor(provider));

    internal static void Configure(ResiliencePipelineBuilder pipeline, ResilienceOptions options, string system,
        CircuitBreakerStateProvider circuit)
    {
        pipeline.AddTimeout(TimeSpan.FromSeconds(options.TotalTimeoutSeconds));
        var mostRetries = Math.Max(options.MaxRetries, options.MaxConflictRetries);
        if (mostRetries > 0)
        {
            var baseDelay = TimeSpan.FromMilliseconds(options.RetryDelayMilliseconds);
            pipeline.AddRetry(new RetryStrategyOptions
            {
                MaxRetryAttempts = mostRetries,
                ShouldHandle = args => ValueTask.FromResult(
                    ShouldRerun(args.Outcome.Exception, args.Context, args.AttemptNumber, options)),
                DelayGenerator = args => ValueTask.FromResult<TimeSpan?>(FullJitter(args.AttemptNumber, baseDelay)),
                OnRetry = args =>
                {
                    var facts = args.Context.Properties.GetValue(Facts, default);
                    StoreTelemetry.Retried(system, facts.Operation ?? "unknown", FaultName(args.Outcome.Exception),
                        ErrorType(args.Outcome.Exception));
                    return ValueTask.CompletedTask;
                },
            });
        }

        pipeline.AddCircuitBreaker(new CircuitBreakerStrategyOptions
        {
            FailureRatio = options.CircuitFailureRatio,
            MinimumThroughput = options.CircuitMinimumThroughput,
            SamplingDuration = TimeSpan.FromSeconds(options.CircuitSamplingSeconds),
            BreakDuration = TimeSpan.FromSeconds(options.CircuitBreakSeconds),
            ShouldHandle = static args => ValueTask.FromResult(IsOutage(args.Outcome.Exception)),
            StateProvider = circuit,
        });
        pipeline.AddTimeout(TimeSpan.FromSeconds(options.AttemptTimeoutSeconds));
    }

    /// <summary>The retry rule: MaxConflictRetries for rolled-back conflicts, else MaxRetries.</summary>
    internal static bool ShouldRerun(Exception? exception, ResilienceContext context, int attempt,
        ResilienceOptions options)
    {
        var fault = exception switch
        {
            TransientStoreFault transient => transient.Fault,

            // An abandoned attempt may have reached the commit before it was abandoned.
            TimeoutRejectedException => StoreFault.Interrupted,
            _ => StoreFault.Permanent,
        };
        var budget = fault == StoreFault.RolledBack ? options.MaxConflictRetries : options.MaxRetries;
        return attempt < budget && RerunRule.Allows(context.Properties.GetValue(Facts, default).Rerun, fault);
    }

    /// <summary>What opens the circuit: the store out of reach or silent; not contention, pool or one node.</summary>
    internal static bool IsOutage(Exception? exception) => exception switch
    {
        TransientStoreFault transient => transient.Fault is StoreFault.Unreachable or StoreFault.Interrupted
            && !transient.PartialOutage,
        TimeoutRejectedException => true,
        _ => false,
    };

    /// <summary>Full jitter: uniform from 0 to base × 2^attempt; the total timeout cuts a longer wait short.</summary>
    public static TimeSpan FullJitter(int attempt, TimeSpan baseDelay) =>
        TimeSpan.FromMilliseconds(Random.Shared.NextDouble() * baseDelay.TotalMilliseconds
            * Math.Pow(2, Math.Min(attempt, 30)));

    private static string FaultName(Exception? exception) => exception switch
    {
        TransientStoreFault { Fault: StoreFault.RolledBack } => "rolled_back",
        TransientStoreFault { Fault: StoreFault.Unreachable } => "unreachable",
        TransientStoreFault { Fault: StoreFault.Saturated } => "saturated",
        TransientStoreFault => "interrupted",
        TimeoutRejectedException => "timeout",
        _ => "other",
    };

    internal static string ErrorType(Exception? exception) => exception switch
    {
        TransientStoreFault transient => transient.InnerException!.GetType().FullName!,
        null => "unknown",
        _ => exception.GetType().FullName!,
    };
}

internal readonly record struct StoreCallFacts(string? Operation, RerunSafety Rerun);

/// <summary>A fault the store called transient, with what it left behind, so strategies need not ask again.</summary>
internal sealed class TransientStoreFault(Exception inner, StoreFault fault) : Exception(inner.Message, inner)
{
    public StoreFault Fault { get; } = fault;

    /// <summary>One node of the store failed, the store answers: not an outage for the circuit.</summary>
    public bool PartialOutage { get; init; }
}
