using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Benchmarks;

/// <summary>
/// The two JSON arrays every relational order row carries, read as <see cref="OrderJson"/> reads them (by hand, with
/// a Utf8JsonReader) against the source-generated <see cref="OrderJsonContext"/>. Setup checks both read the same.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class RowJsonBenchmarks
{
    private static readonly JsonTypeInfo<IReadOnlyList<OrderEvent>> Events = TypeInfo<IReadOnlyList<OrderEvent>>();
    private static readonly JsonTypeInfo<IReadOnlyList<OrderLine>> Lines = TypeInfo<IReadOnlyList<OrderLine>>();

    private string _eventsJson = null!;
    private string _linesJson = null!;

    [GlobalSetup]
    public void Setup()
    {
        using var order = JsonDocument.Parse(
            JsonSerializer.Serialize(SampleOrders.Completed(7), OrderJsonContext.Default.Order));
        _eventsJson = order.RootElement.GetProperty("events").GetRawText();
        _linesJson = order.RootElement.GetProperty("lines").GetRawText();
        Same(OrderJson.ParseEvents(_eventsJson), JsonSerializer.Deserialize(_eventsJson, Events)!, Events);
        Same(OrderJson.ParseLines(_linesJson), JsonSerializer.Deserialize(_linesJson, Lines)!, Lines);
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("events")]
    public int SourceGeneratedEvents() => JsonSerializer.Deserialize(_eventsJson, Events)!.Count;

    [Benchmark]
    [BenchmarkCategory("events")]
    public int HandWrittenEvents() => OrderJson.ParseEvents(_eventsJson).Count;

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("lines")]
    public int SourceGeneratedLines() => JsonSerializer.Deserialize(_linesJson, Lines)!.Count;

    [Benchmark]
    [BenchmarkCategory("lines")]
    public int HandWrittenLines() => OrderJson.ParseLines(_linesJson).Count;

    private static JsonTypeInfo<T> TypeInfo<T>() =>
        (JsonTypeInfo<T>)OrderJsonContext.Default.GetTypeInfo(typeof(T))!;

    private static void Same<T>(T handWritten, T generated, JsonTypeInfo<T> json)
    {
        if (JsonSerializer.Serialize(handWritten, json) != JsonSerializer.Serialize(generated, json))
        {
            throw new InvalidOperationException($"The two readers of {typeof(T).Name} disagree.");
        }
    }
}
