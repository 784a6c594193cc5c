using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.ScaleOut;

/// <summary>
/// A test class on the Citus cluster that ORDERS_TEST_CITUS names: its tests skip with that reason without it, and the
/// distributed databases they make are dropped after the class.
/// </summary>
public abstract class CitusClusterTests : IAsyncLifetime
{
    private readonly CitusDatabases? _cluster = CitusDatabases.FromEnvironment();

    protected static CancellationToken Ct => TestContext.Current.CancellationToken;

    /// <summary>The cluster (inside a test it is there: without it the test was skipped).</summary>
    protected CitusDatabases Cluster => _cluster!;

    public ValueTask InitializeAsync()
    {
        if (_cluster is null)
        {
            Assert.Skip(CitusDatabases.UnavailableReason);
        }

        return ValueTask.CompletedTask;
    }

    public async ValueTask DisposeAsync()
    {
        if (_cluster is not null)
        {
            await _cluster.DisposeAsync();
        }

        GC.SuppressFinalize(this);
    }
}
