using Microsoft.Extensions.Logging;

namespace OrderService.Data.Resilience;

/// <summary>The resilience events an operator must see, logged from the strategies' own callbacks.</summary>
internal static partial class ResilienceLog
{
    /// <summary>The category every event here is logged under.</summary>
    public const string Category = "OrderService.Store.Resilience";

    [LoggerMessage(EventId = 1, EventName = "OnCircuitOpened", Level = LogLevel.Error,
        Message = "The circuit to the {System} store opened for {BreakSeconds} s after repeated failures; calls are " +
            "answered 503 without touching the store. Last fault: {Fault}")]
    public static partial void CircuitOpened(ILogger logger, string system, double breakSeconds, string fault);

    [LoggerMessage(EventId = 2, EventName = "OnCircuitHalfOpened", Level = LogLevel.Warning,
        Message = "The circuit to the {System} store is half-open: the next call probes the store.")]
    public static partial void CircuitHalfOpened(ILogger logger, string system);

    [LoggerMessage(EventId = 3, EventName = "OnCircuitClosed", Level = LogLevel.Information,
        Message = "The circuit to the {System} store closed: the store answers again.")]
    public static partial void CircuitClosed(ILogger logger, string system);

    [LoggerMessage(EventId = 4, EventName = "OnTimeout", Level = LogLevel.Warning,
        Message = "A {System} store call ({Operation}) got no answer within {TimeoutSeconds} s and was abandoned.")]
    public static partial void TimedOut(ILogger logger, string system, string operation, double timeoutSeconds);
}
