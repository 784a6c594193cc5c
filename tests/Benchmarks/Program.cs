using System.Globalization;
using BenchmarkDotNet.Running;
using OrderService.Benchmarks.Allocations;
using OrderService.Benchmarks.BatchFilter;

// dotnet run -c Release --project tests/Benchmarks -- --filter '*'
// ... -- batch-filter-statements   (PostgreSQL: prepared statements and plans of the batch query, no timing)
// ... -- allocations [N] [--types]         (allocated bytes per request, service against plain Dapper + reflection JSON)
switch (args)
{
    case ["batch-filter-statements", ..]:
        await BatchFilterStatements.RunAloneAsync();
        break;
    case ["allocations", ..]:
        await AllocationTable.RunAsync(args.Length > 1 && int.TryParse(args[1], CultureInfo.InvariantCulture, out var n) ? n : 200, args.Contains("--types"));
        break;
    default:
        BenchmarkSwitcher.FromAssembly(typeof(OrderService.Benchmarks.SampleOrders).Assembly).Run(args);

        // In-process cases leave their stores behind: show what PostgreSQL prepared for them.
        await BatchFilterStatements.PrintAsync();
        break;
}

await BatchFilterData.DisposeAsync();
