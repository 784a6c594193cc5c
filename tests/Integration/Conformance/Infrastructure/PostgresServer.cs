using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Xunit;

[assembly: AssemblyFixture(typeof(PostgresServer))]

namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>
/// One PostgreSQL server for the whole test assembly (ORDERS_TEST_POSTGRES, or a throwaway cluster),
/// started on first use so a run filtered to SQLite never pays for it. Every PostgreSQL fixture
/// creates its own database in it. Failing to start fails those tests: it never skips them.
/// </summary>
public sealed class PostgresServer : IAsyncDisposable
{
    private readonly Lazy<Task<ThrowawayPostgres>> _server = new(() => ThrowawayPostgres.StartAsync());

    public Task<ThrowawayPostgres> GetAsync() => _server.Value;

    public async ValueTask DisposeAsync()
    {
        if (_server.IsValueCreated && _server.Value.IsCompletedSuccessfully)
        {
            await _server.Value.Result.DisposeAsync();
        }
    }
}
