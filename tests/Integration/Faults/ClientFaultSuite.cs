using System.Diagnostics;
using System.Net;
using OrderService.Integration.Tests.Conformance;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// A store's client side, for real, with no server: the provider pointed at a closed loopback port. The driver fails
/// to connect (or to select a server) within its bounded time-out, the store calls that transient, the resilience
/// pipeline retries within its budget, and the API answers 503 with Retry-After; the process stays healthy. For the
/// stores no server runs for here (SQL Server, MongoDB), so these run everywhere, unlike their conformance suites.
/// </summary>
public abstract class ClientFaultSuite : IAsyncLifetime
{
    // The conformance suite's bound for a store that is down (the same for every store).
    private static readonly TimeSpan Bound = ConformanceSuite<SqliteRelationalStore>.StoreDownBound;

    private readonly OrderServiceFactory _factory;

    private HttpClient _client = null!;

    /// <param name="downSettings">Store:Provider and a connection string that reaches no server (plus any store keys).</param>
    protected ClientFaultSuite(IReadOnlyDictionary<string, string?> downSettings) =>
        _factory = new OrderServiceFactory(new Dictionary<string, string?>(downSettings, StringComparer.OrdinalIgnoreCase));

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public ValueTask InitializeAsync()
    {
        _client = _factory.CreateClient(); // the host must start although its store is down
        _client.Timeout = TimeSpan.FromSeconds(60);
        return ValueTask.CompletedTask;
    }

    public async ValueTask DisposeAsync()
    {
        _client.Dispose();
        await _factory.DisposeAsync();
    }

    [Fact]
    public async Task Creating_an_order_gives_503_with_Retry_After_within_the_bound()
    {
        var api = new OrderApi(_client, Ct);

        var clock = Stopwatch.StartNew();
        using var response = await api.CreateAsync(Ids.NewCustomer(), idempotencyKey: Ids.NewKey());
        clock.Elapsed.ShouldBeLessThan(Bound);

        await OrderApi.ReadProblemAsync(response, HttpStatusCode.ServiceUnavailable);
        response.Headers.RetryAfter.ShouldNotBeNull("a 503 must say when to retry");
    }

    [Fact]
    public async Task Reads_transitions_batches_and_listings_give_503_within_the_bound()
    {
        var api = new OrderApi(_client, Ct);
        var id = Guid.CreateVersion7();
        var calls = new (string Name, Func<Task<HttpResponseMessage>> Send)[]
        {
            ("GET /orders/{id}", () => api.GetAsync($"/orders/{id}")),
            ("POST /orders/{id}/pay", () => api.TransitionAsync(id, "pay")),
            ("POST /orders/{id}/cancel", () => api.TransitionAsync(id, "cancel")),
            ("POST /orders/batch", () => api.PostAsync("/orders/batch", new { ids = new[] { id } })),
            ("GET /customers/{id}/orders", () => api.GetAsync($"/customers/{Ids.NewCustomer()}/orders")),
        };

        foreach (var (name, send) in calls)
        {
            var clock = Stopwatch.StartNew();
            using var response = await send();
            clock.Elapsed.ShouldBeLessThan(Bound, name);
            await OrderApi.ReadProblemAsync(response, HttpStatusCode.ServiceUnavailable);
            response.Headers.RetryAfter.ShouldNotBeNull(name);
        }
    }

    [Fact]
    public async Task Readiness_is_503_and_the_service_stays_up()
    {
        var clock = Stopwatch.StartNew();
        using (var ready = await _client.GetAsync("/health/ready", Ct))
        {
            clock.Elapsed.ShouldBeLessThan(Bound);
            ready.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
        }

        // Still serving after the failures: liveness is up, and the next request fails just as cleanly.
        using (var live = await _client.GetAsync("/health/live", Ct))
        {
            live.StatusCode.ShouldBe(HttpStatusCode.OK);
        }

        using var again = await new OrderApi(_client, Ct).CreateAsync(Ids.NewCustomer());
        again.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
        using var liveAfter = await _client.GetAsync("/health/live", Ct);
        liveAfter.StatusCode.ShouldBe(HttpStatusCode.OK);
    }
}
