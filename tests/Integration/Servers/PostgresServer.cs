using OrderService.Integration.Tests.Servers;
using OrderService.Testing;
using Xunit;

[assembly: AssemblyFixture(typeof(PostgresServer))]

namespace OrderService.Integration.Tests.Servers;

/// <summary>
/// One PostgreSQL server for the whole test assembly, chosen by <see cref="TestServers.PostgreSqlAsync"/>
/// (ORDERS_TEST_POSTGRES, a Testcontainers container, or a throwaway cluster from the local binaries), started
/// on first use so a run filtered to SQLite never pays for it. Every PostgreSQL fixture creates its own
/// database in it. With no server at all, its tests skip with the reason (and scripts/test.sh, for which
/// PostgreSQL must run, fails).
/// </summary>
public sealed class PostgresServer : IAsyncDisposable
{
    private readonly Lazy<Task<TestServer>> _selection = new(() => TestServers.PostgreSqlAsync());
    private readonly Lazy<Task<ThrowawayPostgres?>> _server;

    public PostgresServer() => _server = new(async () => await _selection.Value is { ConnectionString: { } connection } server
        ? server.Owner as ThrowawayPostgres ?? ThrowawayPostgres.OnServer(connection, server.Source, server.Owner)
        : null);

    /// <summary>Why there is no PostgreSQL server here, or null when there is one (selects on first use).</summary>
    public async Task<string?> UnavailableReasonAsync() => (await _selection.Value).SkipReason;

    /// <summary>The server; inside a test with none, the test is skipped with the reason.</summary>
    public async Task<ThrowawayPostgres> GetAsync() =>
        await _server.Value ?? throw SkipException((await _selection.Value).SkipReason!);

    public async ValueTask DisposeAsync()
    {
        if (_server.IsValueCreated && _server.Value.IsCompletedSuccessfully && _server.Value.Result is { } server)
        {
            await server.DisposeAsync();
        }
    }

    private static Exception SkipException(string reason)
    {
        Assert.Skip(reason);
        return new InvalidOperationException(reason); // not reached: Assert.Skip throws
    }
}
