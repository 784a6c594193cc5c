using System.Net;
using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// A pool with no free connection in time is load on this service, not an outage of the store: the waits answer 503
/// when the budget runs out, and the circuit stays closed, so the store is served again the moment a connection is
/// free. Here the pool holds one connection, and a pay blocked on a row lock (taken from outside) holds it.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class SaturatedPoolTests(PostgresServer server)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Waits_for_a_busy_pool_answer_503_and_do_not_open_the_circuit()
    {
        var postgres = await server.GetAsync();
        var database = await postgres.CreateDatabaseAsync("saturated_pool", Ct);
        await using var service = new OrderServiceFactory(new Dictionary<string, string?>
        {
            ["Store:Provider"] = "PostgreSql",
            ["Store:Layout"] = "Relational",
            ["ConnectionStrings:Orders"] = new NpgsqlConnectionStringBuilder(database) { MaxPoolSize = 1, Timeout = 1 }.ConnectionString,
            ["Resilience:AttemptTimeoutSeconds"] = "30",
            ["Resilience:TotalTimeoutSeconds"] = "30",

            // A breaker that would open at the first few failures, and stay open past the end of this test.
            ["Resilience:CircuitMinimumThroughput"] = "3",
            ["Resilience:CircuitBreakSeconds"] = "120",
        });
        using var client = service.CreateClient();
        var api = new OrderApi(client, Ct);
        var blocked = await api.CreateOrderAsync(Ids.NewCustomer());
        var other = await api.CreateOrderAsync(Ids.NewCustomer());

        await using var admin = new NpgsqlConnection(database);
        await admin.OpenAsync(Ct);
        var transaction = await admin.BeginTransactionAsync(Ct);
        await using (var lockRow = new NpgsqlCommand("SELECT 1 FROM orders WHERE id = @id FOR UPDATE", admin, transaction))
        {
            lockRow.Parameters.AddWithValue("id", blocked.Id);
            await lockRow.ExecuteScalarAsync(Ct);
        }

        // The pay takes the pool's one connection and waits on the lock.
        var pay = api.TransitionAsync(blocked.Id, "pay");
        await Task.Delay(TimeSpan.FromMilliseconds(500), Ct);
        pay.IsCompleted.ShouldBeFalse("the pay must hold the pool's only connection while the row is locked");

        var reads = await Task.WhenAll(Enumerable.Range(0, 5).Select(async _ =>
        {
            using var response = await api.GetAsync($"/orders/{other.Id}");
            return (response.StatusCode, Problem: await response.Content.ReadAsStringAsync(Ct));
        }));
        reads.ShouldAllBe(r => r.StatusCode == HttpStatusCode.ServiceUnavailable, "each read waited for a connection past the pool's Timeout, then its reruns did too");

        await transaction.CommitAsync(Ct);
        using (var paid = await pay)
        {
            paid.StatusCode.ShouldBe(HttpStatusCode.OK);
        }

        (await api.GetOrderAsync(other.Id)).Id.ShouldBe(other.Id, "a busy pool is not an outage: the circuit must still be closed");
        using var ready = await client.GetAsync("/health/ready", Ct);
        ready.StatusCode.ShouldBe(HttpStatusCode.OK);
    }
}
