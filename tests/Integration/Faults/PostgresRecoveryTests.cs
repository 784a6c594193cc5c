using System.Diagnostics;
using System.Net;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// The service across a PostgreSQL outage: 503 while the server is gone, readiness recovering by itself
/// when it is back, and every acknowledged write surviving a crash (kill -9) of the server. Each test
/// owns a throwaway cluster, since stopping the shared one would break the tests running beside it.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRecoveryTests
{
    private static readonly TimeSpan RecoveryBound = TimeSpan.FromSeconds(30);

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Postgres_outage_gives_503_and_the_service_recovers_by_itself_when_the_server_returns()
    {
        await using var server = await StartPrivateClusterAsync();
        await using var factory = new OrderServiceFactory(await SettingsAsync(server));
        using var client = factory.CreateClient();
        var api = new OrderApi(client, Ct);
        var before = await api.CreateOrderAsync(Ids.NewCustomer());

        await server.StopAsync(Ct);

        var clock = Stopwatch.StartNew();
        using (var down = await api.CreateAsync(Ids.NewCustomer()))
        {
            clock.Elapsed.ShouldBeLessThan(TimeSpan.FromSeconds(10));
            await OrderApi.ReadProblemAsync(down, HttpStatusCode.ServiceUnavailable);
            down.Headers.RetryAfter.ShouldNotBeNull();
        }

        using (var ready = await client.GetAsync("/health/ready", Ct))
        {
            ready.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
        }

        await server.RestartAsync(Ct);

        await api.WaitUntilReadyAsync(RecoveryBound, "/health/ready must recover by itself once the server is back");
        (await api.GetOrderAsync(before.Id)).ShouldBeEquivalentTo(before);
        await api.TransitionOkAsync(before.Id, "pay");
        await api.CreateOrderAsync(Ids.NewCustomer());
    }

    [Fact]
    public async Task Every_acknowledged_write_survives_a_kill_9_of_the_server()
    {
        await using var server = await StartPrivateClusterAsync();
        await using var factory = new OrderServiceFactory(await SettingsAsync(server));
        using var client = factory.CreateClient();
        var api = new OrderApi(client, Ct);
        var customer = Ids.NewCustomer();
        var acknowledged = await Task.WhenAll(Enumerable.Range(0, 40).Select(async i =>
        {
            var order = await api.CreateOrderAsync(customer);
            return i % 2 == 0 ? await api.TransitionOkAsync(order.Id, "pay") : order;
        }));

        await server.KillAsync(Ct);
        await server.RestartAsync(Ct); // crash recovery replays the WAL

        await api.WaitUntilReadyAsync(RecoveryBound, "/health/ready must recover by itself once the server is back");
        foreach (var order in acknowledged)
        {
            (await api.GetOrderAsync(order.Id)).ShouldBeEquivalentTo(order);
        }
    }

    private static async Task<ThrowawayPostgres> StartPrivateClusterAsync()
    {
        if (ThrowawayPostgres.FindBinDirectory() is null && Environment.GetEnvironmentVariable(ThrowawayPostgres.ExternalServerVariable) is not null)
        {
            Assert.Skip($"Stopping and killing a server needs local PostgreSQL binaries; only {ThrowawayPostgres.ExternalServerVariable} is available.");
        }

        return await ThrowawayPostgres.StartLocalAsync(cancellationToken: Ct);
    }

    private static async Task<Dictionary<string, string?>> SettingsAsync(ThrowawayPostgres server) => new()
    {
        ["Store:Provider"] = "PostgreSql",
        ["Store:Layout"] = "Relational",
        ["ConnectionStrings:Orders"] = await server.CreateDatabaseAsync("recovery", Ct),
    };
}
