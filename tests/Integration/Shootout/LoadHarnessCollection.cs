using Xunit;

namespace OrderService.Integration.Tests.Shootout;

/// <summary>
/// The harness's NBomber runs go alone, with no other test class in parallel: NBomber's copies share the test process's
/// thread pool. scripts/test.sh also runs them in a process of their own after the rest of the assembly: inside the
/// long parallel run, sessions that pass alone in seconds stalled at zero workflows a second until their time-out.
/// </summary>
[CollectionDefinition(nameof(LoadHarnessCollection), DisableParallelization = true)]
public sealed class LoadHarnessCollection;
