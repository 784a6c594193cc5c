using BenchmarkDotNet.Running;

// dotnet run -c Release --project tests/Benchmarks -- --filter '*'
BenchmarkSwitcher.FromAssembly(typeof(OrderService.Benchmarks.SampleOrders).Assembly).Run(args);
