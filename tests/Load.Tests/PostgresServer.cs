using OrderService.Load.Tests;
using OrderService.Testing;
using Xunit;

[assembly: AssemblyFixture(typeof(PostgresServer))]

namespace OrderService.Load.Tests;

/// <summary>
/// One PostgreSQL server for the assembly: ORDERS_TEST_POSTGRES, or a throwaway cluster from the local binaries,
/// started on first use. With neither, a test that asks for it skips with the reason.
/// </summary>
public sealed class PostgresServer : IAsyncDisposable
{
    private readonly Lazy<Task<ThrowawayPostgres>> _server = new(() => ThrowawayPostgres.StartAsync());

    public Task<ThrowawayPostgres> GetAsync()
    {
        Assert.SkipWhen(
            Environment.GetEnvironmentVariable(ThrowawayPostgres.ExternalServerVariable) is null
                && ThrowawayPostgres.FindBinDirectory() is null,
            $"PostgreSQL binaries are not installed here and {ThrowawayPostgres.ExternalServerVariable} is not set.");
        return _server.Value;
    }

    public async ValueTask DisposeAsync()
    {
        if (_server.IsValueCreated && _server.Value.IsCompletedSuccessfully)
        {
            await _server.Value.Result.DisposeAsync();
        }
    }
}
