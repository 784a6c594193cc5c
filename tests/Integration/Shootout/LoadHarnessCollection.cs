using Xunit;

namespace OrderService.Integration.Tests.Shootout;

/// <summary>
/// The harness's NBomber runs go alone, with no other test class in parallel: NBomber's copies share the test process's
/// thread pool, and beside the parallel suites on 2 cores a small run starved to about one workflow a second and
/// outlived its time-out. Alone, the smoke run takes about 90 s.
/// </summary>
[CollectionDefinition(nameof(LoadHarnessCollection), DisableParallelization = true)]
public sealed class LoadHarnessCollection;
