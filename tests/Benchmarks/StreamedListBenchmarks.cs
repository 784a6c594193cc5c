using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Microsoft.IO;
using OrderService.Data.Orders;

namespace OrderService.Benchmarks;

/// <summary>
/// A 1,000-order batch answer (seeds 001 and 004): materialize the list and serialize it into one big
/// string, versus writing each order as it arrives into a pooled stream that is flushed as it fills,
/// the way OrderStream writes to the response pipe.
/// </summary>
[MemoryDiagnoser]
public class StreamedListBenchmarks
{
    private static readonly RecyclableMemoryStreamManager Streams = new();
    private Order[] _orders = null!;

    [Params(1000)]
    public int Count { get; set; }

    [GlobalSetup]
    public void Setup() => _orders = SampleOrders.Many(Count);

    [Benchmark(Baseline = true)]
    public int ListThenOneString()
    {
        var list = new List<Order>(Rows());
        var json = JsonSerializer.Serialize(list.ToArray(), OrderJsonContext.Default.OrderArray);
        Stream.Null.Write(System.Text.Encoding.UTF8.GetBytes(json));
        return json.Length;
    }

    [Benchmark]
    public long StreamedIntoPooledBuffer()
    {
        using var buffer = Streams.GetStream("batch");
        using var writer = new Utf8JsonWriter((Stream)buffer, new JsonWriterOptions { SkipValidation = true });
        writer.WriteStartArray();
        var written = 0;
        foreach (var order in Rows())
        {
            JsonSerializer.Serialize(writer, order, OrderJsonContext.Default.Order);
            if (++written % 32 == 0)
            {
                writer.Flush();
                buffer.Position = 0;
                buffer.CopyTo(Stream.Null);
                buffer.SetLength(0);
            }
        }

        writer.WriteEndArray();
        writer.Flush();
        buffer.Position = 0;
        buffer.CopyTo(Stream.Null);
        return written;
    }

    private IEnumerable<Order> Rows()
    {
        foreach (var order in _orders)
        {
            yield return order;
        }
    }
}
