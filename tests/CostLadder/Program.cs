// One rung of the cost ladder: dotnet CostLadder.dll --rung a|b --urls http://127.0.0.1:5080 --postgres "Host=..."
await OrderService.CostLadder.Ladder.Build(args).RunAsync();
