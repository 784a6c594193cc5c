using Xunit;

namespace OrderService.Load.Tests.Shootout;

/// <summary>
/// The harness's NBomber runs go alone, with no other test class in parallel: NBomber's copies share the test process's
/// thread pool. They also stay out of tests/Integration's process: inside its long parallel run, sessions that pass
/// alone in seconds stalled at zero workflows a second until their time-out.
/// </summary>
[CollectionDefinition(nameof(LoadHarnessCollection), DisableParallelization = true)]
public sealed class LoadHarnessCollection;
