// One rung of the cost ladder: dotnet CostLadder.dll --rung a|a-gc|b|c|d|e|f --urls http://127.0.0.1:5080 --postgres "Host=..."
await (await OrderService.CostLadder.Ladder.BuildAsync(args)).RunAsync();

/// <summary>The rung's entry point; internal, so that the tests that reference this assembly see only the service's Program.</summary>
internal partial class Program;
