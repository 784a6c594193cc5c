using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Polly;
using Polly.CircuitBreaker;
using Polly.Registry;
using Polly.Retry;
using Polly.Telemetry;
using Polly.Timeout;

namespace OrderService.Data.Resilience;

/// <summary>One resilience pipeline per store: retry → circuit breaker → attempt timeout → the store.</summary>
public static class StorePipeline
{
    /// <summary>The call's facts, read by the strategies.</summary>
    internal static readonly ResiliencePropertyKey<StoreCallFacts> Facts = new("orderservice.store.call");

    public static string KeyFor(StoreProvider provider) => "order-store-" + StoreTelemetry.SystemName(provider);

    /// <summary>The Resilience section, validated at start-up, and each store's pipeline.</summary>
    public static IServiceCollection AddStoreResilience(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddSettings<ResilienceOptions>(ResilienceOptions.SectionName, static (c, o) => c.Bind(o),
            new ResilienceOptionsValidator(), configuration);

        // Polly's telemetry, but a retry and the attempt before it are routine under contention: Debug, not warnings.
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
                var logger = context.ServiceProvider.GetRequiredService<ILoggerFactory>()
                    .CreateLogger(ResilienceLog.Category);
                var circuit = new CircuitBreakerStateProvider();
                context.OnPipelineDisposed(StoreTelemetry.ObserveCircuit(system, () => (int)circuit.CircuitState)
                    .Dispose);
                Configure(pipeline, options, system, circuit, logger,
                    context.ServiceProvider.GetService<ITransientFaults>);
            });
        }

        return services;
    }

    /// <summary>The store's pipeline from the registry (built on first use).</summary>
    public static ResiliencePipeline For(IServiceProvider services, StoreProvider provider) =>
        services.GetRequiredService<ResiliencePipelineProvider<string>>().GetPipeline(KeyFor(provider));

    /// <param name="engine">Names the engine's error when the circuit opens (the store is built by then).</param>
    internal static void Configure(ResiliencePipelineBuilder pipeline, ResilienceOptions options, string system,
        CircuitBreakerStateProvider circuit, ILogger logger,
        Func<ITransientFaults?> engine)
    {
        var total = TimeSpan.FromSeconds(options.TotalTimeoutSeconds);
        var attempt = TimeSpan.FromSeconds(options.AttemptTimeoutSeconds);
        var timeProvider = pipeline.TimeProvider ?? TimeProvider.System;
        var mostRetries = Math.Max(options.MaxRetries, options.MaxConflictRetries);
        if (mostRetries > 0)
        {
            var baseDelay = TimeSpan.FromMilliseconds(options.RetryDelayMilliseconds);
            pipeline.AddRetry(new RetryStrategyOptions
            {
                MaxRetryAttempts = mostRetries,
                ShouldHandle = args => ValueTask.FromResult(
                    ShouldRerun(args.Outcome.Exception, args.Context, args.AttemptNumber, options)
                        && Remaining(args.Context, total, timeProvider) > TimeSpan.Zero),
                DelayGenerator = args => ValueTask.FromResult<TimeSpan?>(
                    FullJitter(args.AttemptNumber, baseDelay, Remaining(args.Context, total, timeProvider))),
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
            OnOpened = args =>
            {
                ResilienceLog.CircuitOpened(logger, system, args.BreakDuration.TotalSeconds,
                    FaultDescription(args.Outcome.Exception, engine()));
                return ValueTask.CompletedTask;
            },
            OnHalfOpened = _ =>
            {
                ResilienceLog.CircuitHalfOpened(logger, system);
                return ValueTask.CompletedTask;
            },
            OnClosed = _ =>
            {
                ResilienceLog.CircuitClosed(logger, system);
                return ValueTask.CompletedTask;
            },
        });
        pipeline.AddTimeout(new TimeoutStrategyOptions
        {
            TimeoutGenerator = args =>
                ValueTask.FromResult(AttemptBound(attempt, Remaining(args.Context, total, timeProvider))),
            OnTimeout = args =>
            {
                ResilienceLog.TimedOut(logger, system, args.Context.Properties.GetValue(Facts, default).Operation
                    ?? "unknown", args.Timeout.TotalSeconds);
                return ValueTask.CompletedTask;
            },
        });
    }

    /// <summary>The attempt bound or what is left of the total, never zero (Polly's "no timeout").</summary>
    public static TimeSpan AttemptBound(TimeSpan attempt, TimeSpan remaining) =>
        remaining >= attempt ? attempt : remaining > TimeSpan.FromMilliseconds(1) ? remaining
            : TimeSpan.FromMilliseconds(1);

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

    /// <summary>Full jitter: uniform from 0 to base × 2^attempt, capped by what is left of the total.</summary>
    public static TimeSpan FullJitter(int attempt, TimeSpan baseDelay, TimeSpan remaining)
    {
        var ceiling = Math.Min(baseDelay.TotalMilliseconds * Math.Pow(2, Math.Min(attempt, 30)),
            Math.Max(0, remaining.TotalMilliseconds));
        return TimeSpan.FromMilliseconds(Random.Shared.NextDouble() * ceiling);
    }

    private static TimeSpan Remaining(ResilienceContext context, TimeSpan total, TimeProvider clock) =>
        context.Properties.GetValue(Facts, default) is { Started: > 0 } facts ? total
            - clock.GetElapsedTime(facts.Started) : total;

    private static string FaultName(Exception? exception) => exception switch
    {
        TransientStoreFault { Fault: StoreFault.RolledBack } => "rolled_back",
        TransientStoreFault { Fault: StoreFault.Unreachable } => "unreachable",
        TransientStoreFault { Fault: StoreFault.Saturated } => "saturated",
        TransientStoreFault => "interrupted",
        TimeoutRejectedException => "timeout",
        _ => "other",
    };

    /// <summary>For the log: the engine's code and message where an engine raised it, else the exception's.</summary>
    internal static string FaultDescription(Exception? exception, ITransientFaults? engine)
    {
        var fault = exception is TransientStoreFault transient ? transient.InnerException! : exception;
        return fault is null ? "unknown" : StoreErrors.Describe(fault, engine)
            ?? $"{fault.GetType().FullName}: {fault.Message}";
    }

    internal static string ErrorType(Exception? exception) => exception switch
    {
        TransientStoreFault transient => transient.InnerException!.GetType().FullName!,
        null => "unknown",
        _ => exception.GetType().FullName!,
    };
}

/// <summary>What the pipeline needs to know about one store call.</summary>
internal readonly record struct StoreCallFacts(string? Operation, RerunSafety Rerun, long Started);

/// <summary>A fault the store called transient, with what it left behind, so strategies need not ask again.</summary>
internal sealed class TransientStoreFault(Exception inner, StoreFault fault) : Exception(inner.Message, inner)
{
    public StoreFault Fault { get; } = fault;

    /// <summary>One node of the store failed, the store answers: not an outage for the circuit.</summary>
    public bool PartialOutage { get; init; }
}
