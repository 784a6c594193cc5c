using System.Buffers;
using System.Text.Json;
using System.Text.Json.Serialization;
using BenchmarkDotNet.Attributes;
using OrderService.Data.Orders;

namespace OrderService.Benchmarks;

/// <summary>
/// One order to JSON, as every workflow step answers (seeds 002 and 004): reflection into a string,
/// the source-generated context into a string, and the source-generated context into a reused pooled
/// UTF-8 buffer, which is what the endpoints do through the response pipe.
/// </summary>
[MemoryDiagnoser]
public class OrderSerializationBenchmarks : IDisposable
{
    private readonly JsonSerializerOptions _reflection = new(JsonSerializerDefaults.Web)
    {
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Converters = { new JsonStringEnumConverter(), new UtcTimestampJsonConverter() },
    };

    private readonly ArrayBufferWriter<byte> _pooled = new(4096);
    private Utf8JsonWriter _writer = null!;
    private Order _order = null!;

    [GlobalSetup]
    public void Setup()
    {
        _order = SampleOrders.Completed(1);
        _writer = new Utf8JsonWriter(_pooled, new JsonWriterOptions { SkipValidation = true });
    }

    [GlobalCleanup]
    public void Dispose() => _writer.Dispose();

    [Benchmark(Baseline = true)]
    public string ReflectionToString() => JsonSerializer.Serialize(_order, _reflection);

    [Benchmark]
    public string SourceGeneratedToString() => JsonSerializer.Serialize(_order, OrderJsonContext.Default.Order);

    [Benchmark]
    public int SourceGeneratedToPooledUtf8()
    {
        _pooled.ResetWrittenCount();
        _writer.Reset(_pooled);
        JsonSerializer.Serialize(_writer, _order, OrderJsonContext.Default.Order);
        _writer.Flush();
        return _pooled.WrittenCount;
    }
}
