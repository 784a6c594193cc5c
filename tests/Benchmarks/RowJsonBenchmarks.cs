using System.Text.Json;
using System.Text.Json.Serialization;
using BenchmarkDotNet.Attributes;
using OrderService.Contracts;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Benchmarks;

/// <summary>
/// Reading the events array that a relational order row carries as JSON (seed 001: rows to objects
/// without a reflection mapper): the hand-written Utf8JsonReader in OrderJson versus the
/// source-generated deserializer.
/// </summary>
[MemoryDiagnoser]
public class RowJsonBenchmarks
{
    private string _eventsJson = null!;

    [GlobalSetup]
    public void Setup()
    {
        var json = JsonSerializer.Serialize(SampleOrders.Completed(7), OrderServiceJsonContext.Default.Order);
        using var document = JsonDocument.Parse(json);
        _eventsJson = document.RootElement.GetProperty("events").GetRawText();
    }

    [Benchmark(Baseline = true)]
    public int SourceGeneratedDeserialize() => JsonSerializer.Deserialize(_eventsJson, EventsJsonContext.Default.OrderEventArray)!.Length;

    [Benchmark]
    public int HandWrittenReader() => OrderJson.ParseEvents(_eventsJson).Count;
}

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, Converters = [typeof(UtcTimestampJsonConverter)])]
[JsonSerializable(typeof(OrderEvent[]))]
internal sealed partial class EventsJsonContext : JsonSerializerContext;
