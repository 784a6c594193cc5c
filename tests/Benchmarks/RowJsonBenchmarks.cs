using System.Buffers;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using OrderService.Contracts;
using OrderService.Data.Orders;
using OrderService.Data.Relational;

namespace OrderService.Benchmarks;

/// <summary>
/// The JSON texts the relational stores exchange with the database (seed 001: rows to objects without a reflection
/// mapper), each way: the hand-written Utf8JsonReader/Writer in <see cref="OrderJson"/> versus System.Text.Json's
/// source generation for the same shape. Reads: the events and the lines arrays a row carries. Writes: the lines
/// parameter of a create and an event's data (which the store writes with source generation: the hand-written writer
/// here is the alternative it measured). Setup checks that both give the same objects and the same text.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class RowJsonBenchmarks : IDisposable
{
    private string _eventsJson = null!;
    private string _linesJson = null!;
    private Order _order = null!;
    private OrderEventData _data = null!;
    private readonly ArrayBufferWriter<byte> _scratch = new(256);
    private Utf8JsonWriter _writer = null!;

    [GlobalSetup]
    public void Setup()
    {
        _order = SampleOrders.Completed(7);
        _data = _order.Events[2].Data;
        _writer = new Utf8JsonWriter(_scratch, new JsonWriterOptions { SkipValidation = true });
        var json = JsonSerializer.Serialize(_order, OrderServiceJsonContext.Default.Order);
        using var document = JsonDocument.Parse(json);
        _eventsJson = document.RootElement.GetProperty("events").GetRawText();
        _linesJson = document.RootElement.GetProperty("lines").GetRawText();

        Same(JsonSerializer.Serialize(OrderJson.ParseEvents(_eventsJson).ToArray(), RowJsonContext.Default.OrderEventArray),
            JsonSerializer.Serialize(JsonSerializer.Deserialize(_eventsJson, RowJsonContext.Default.OrderEventArray), RowJsonContext.Default.OrderEventArray), "events read");
        Same(JsonSerializer.Serialize(OrderJson.ParseLines(_linesJson).ToArray(), RowJsonContext.Default.OrderLineArray),
            JsonSerializer.Serialize(JsonSerializer.Deserialize(_linesJson, RowJsonContext.Default.OrderLineArray), RowJsonContext.Default.OrderLineArray), "lines read");
        Same(HandWrittenLinesParameter(), SourceGeneratedLinesParameter(), "lines parameter");
        Same(HandWrittenEventData(), SourceGeneratedEventData(), "event data");
    }

    [GlobalCleanup]
    public void Dispose() => _writer.Dispose();

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("read events")]
    public int SourceGeneratedDeserialize() => JsonSerializer.Deserialize(_eventsJson, RowJsonContext.Default.OrderEventArray)!.Length;

    [Benchmark]
    [BenchmarkCategory("read events")]
    public int HandWrittenReader() => OrderJson.ParseEvents(_eventsJson).Count;

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("read lines")]
    public int SourceGeneratedLines() => JsonSerializer.Deserialize(_linesJson, RowJsonContext.Default.OrderLineArray)!.Length;

    [Benchmark]
    [BenchmarkCategory("read lines")]
    public int HandWrittenLines() => OrderJson.ParseLines(_linesJson).Count;

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("write lines parameter")]
    public string SourceGeneratedLinesParameter() =>
        JsonSerializer.Serialize(_order.Lines.Select((line, i) => new LineParameter(i + 1, line.Sku, line.Quantity, line.UnitPrice)).ToArray(), RowJsonContext.Default.LineParameterArray);

    [Benchmark]
    [BenchmarkCategory("write lines parameter")]
    public string HandWrittenLinesParameter() => OrderJson.LinesParameter(_order.Lines);

    /// <summary>The store's event data parameter: source-generated.</summary>
    [Benchmark(Baseline = true)]
    [BenchmarkCategory("write event data")]
    public string SourceGeneratedEventData() => OrderJson.EventData(_data);

    /// <summary>A hand-written writer of the same text, kept here only to show that it does not pay for so small an object.</summary>
    [Benchmark]
    [BenchmarkCategory("write event data")]
    public string HandWrittenEventData()
    {
        _scratch.ResetWrittenCount();
        _writer.Reset(_scratch);
        _writer.WriteStartObject();
        if (_data.PaymentReference is not null) _writer.WriteString("paymentReference"u8, _data.PaymentReference);
        if (_data.Carrier is not null) _writer.WriteString("carrier"u8, _data.Carrier);
        if (_data.TrackingNumber is not null) _writer.WriteString("trackingNumber"u8, _data.TrackingNumber);
        if (_data.Reason is not null) _writer.WriteString("reason"u8, _data.Reason);
        if (_data.Total is { } total) _writer.WriteNumber("total"u8, total);
        _writer.WriteEndObject();
        _writer.Flush();
        return Encoding.UTF8.GetString(_scratch.WrittenSpan);
    }

    private static void Same(string handWritten, string sourceGenerated, string what)
    {
        if (!string.Equals(handWritten, sourceGenerated, StringComparison.Ordinal))
        {
            throw new InvalidOperationException($"The {what} differ: {handWritten} against {sourceGenerated}.");
        }
    }
}

/// <summary>One line as the create's lines parameter carries it (the shape the dialects' LinesFromJson read).</summary>
internal sealed record LineParameter(
    [property: JsonPropertyName("line_no")] int LineNo,
    [property: JsonPropertyName("sku")] string Sku,
    [property: JsonPropertyName("quantity")] int Quantity,
    [property: JsonPropertyName("unit_price")] decimal UnitPrice);

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull, Converters = [typeof(UtcTimestampJsonConverter)])]
[JsonSerializable(typeof(OrderEvent[]))]
[JsonSerializable(typeof(OrderLine[]))]
[JsonSerializable(typeof(LineParameter[]))]
internal sealed partial class RowJsonContext : JsonSerializerContext;
