using BenchmarkDotNet.Attributes;
using OrderService.Data;

namespace OrderService.Benchmarks.BatchFilter;

/// <summary>
/// POST /orders/batch's store query (seed 000): IOrderStore.GetManyAsync for N ids out of 100,000 orders,
/// Store:BatchFilter=Json (one parameter: uuid[] / json_each / OPENJSON, one statement for every N) against InList
/// (one parameter per id: one statement text per N). MongoDB sends one $in array either way; its InList splits the
/// ids into finds of 1,000. Ratio = Json time / InList time: 0.5 is "Json 2x faster".
/// In process (InProcessShortRun) so the seeded stores are built once and shared by every case.
/// </summary>
[Config(typeof(InProcessShortRun))]
public class BatchFilterBenchmarks
{
    private IOrderStore _json = null!;
    private IOrderStore _inList = null!;
    private Guid[] _ids = null!;

    public static IEnumerable<string> Stores => BatchFilterData.AvailableStores();

    [ParamsSource(nameof(Stores))]
    public string Store { get; set; } = "Sqlite";

    public static IEnumerable<int> Sizes => BatchFilterData.Sizes();

    [ParamsSource(nameof(Sizes))]
    public int Ids { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _json = BatchFilterData.StoreAsync(Store, Data.BatchFilter.Json).GetAwaiter().GetResult();
        _inList = BatchFilterData.StoreAsync(Store, Data.BatchFilter.InList).GetAwaiter().GetResult();
        _ids = BatchFilterData.PickIds(Ids);

        // Both filters must find every id: a benchmark of a query that finds nothing would measure nothing.
        foreach (var (name, found) in new[] { ("Json", Read(_json)), ("InList", Read(_inList)) })
        {
            if (found != Ids)
            {
                throw new InvalidOperationException($"{Store} {name}: {found} orders for {Ids} ids.");
            }
        }
    }

    [Benchmark(Baseline = true)]
    public Task<int> InList() => CountAsync(_inList, _ids);

    [Benchmark]
    public Task<int> Json() => CountAsync(_json, _ids);

    private int Read(IOrderStore store) => CountAsync(store, _ids).GetAwaiter().GetResult();

    public static async Task<int> CountAsync(IOrderStore store, Guid[] ids)
    {
        var count = 0;
        await foreach (var order in store.GetManyAsync(ids, CancellationToken.None))
        {
            count += order.Lines.Count > 0 ? 1 : 0;
        }

        return count;
    }
}
