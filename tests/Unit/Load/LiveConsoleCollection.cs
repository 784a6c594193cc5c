using Xunit;

namespace OrderService.Unit.Tests.Load;

/// <summary>
/// Classes that open a Spectre.Console live display (NBomber's table included) run alone: Spectre allows one
/// interactive display per process and throws "interactive functions concurrently" on a second.
/// </summary>
[CollectionDefinition(nameof(LiveConsoleCollection), DisableParallelization = true)]
public sealed class LiveConsoleCollection;
