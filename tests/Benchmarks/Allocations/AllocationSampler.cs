using System.Diagnostics.Tracing;

namespace OrderService.Benchmarks.Allocations;

/// <summary>
/// Which types the allocations are: the runtime's GCAllocationTick event (one sample per ~100 KB allocated,
/// naming the type that crossed the line), counted per type while <see cref="Phase"/> is set. A sample, not an
/// exact census: enough to see what dominates an endpoint's bytes. `allocations N --types` prints it.
/// </summary>
public sealed class AllocationSampler : EventListener
{
    private const EventKeywords GcKeyword = (EventKeywords)0x1;
    private readonly Dictionary<string, Dictionary<string, long>> _samples = [];
    private readonly Lock _gate = new();

    public string? Phase { get; set; }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
        {
            EnableEvents(eventSource, EventLevel.Verbose, GcKeyword);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (Phase is not { } phase || eventData.EventName is null || !eventData.EventName.StartsWith("GCAllocationTick", StringComparison.Ordinal) || eventData.PayloadNames is null)
        {
            return;
        }

        var type = eventData.Payload![eventData.PayloadNames.IndexOf("TypeName")] as string ?? "?";
        lock (_gate)
        {
            if (!_samples.TryGetValue(phase, out var types))
            {
                _samples[phase] = types = [];
            }

            types[type] = types.GetValueOrDefault(type) + 1;
        }
    }

    // Polly's state machines carry type names of several KB: the generic arguments say nothing more here.
    private static string Short(string type) => type.Length > 90 ? type[..90] + "..." : type;

    public void Print(int top)
    {
        lock (_gate)
        {
            foreach (var (phase, types) in _samples)
            {
                Console.WriteLine($"{phase}: " + string.Join(", ", types.OrderByDescending(t => t.Value).Take(top).Select(t => $"{Short(t.Key)} x{t.Value}")));
            }
        }
    }
}
