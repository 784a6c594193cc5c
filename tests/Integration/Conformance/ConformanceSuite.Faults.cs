using System.Diagnostics;
using System.Net;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// A store that is down: 503 + Retry-After within a bound, never a hang or a 500.
public abstract partial class ConformanceSuite<TStore>
{
    /// <summary>"A few seconds" (API.md): generous for a loaded 2-core CI box, far below a hang.</summary>
    public static readonly TimeSpan StoreDownBound = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task A_store_that_is_down_gives_503_with_Retry_After_on_every_data_endpoint_within_the_bound()
    {
        await using var factory = Store.CreateDownFactory();
        using var client = factory.CreateClient(); // the service must start even though its store is down
        client.Timeout = TimeSpan.FromSeconds(60);
        var api = new OrderApi(client, Ct);
        var id = Guid.CreateVersion7();

        var calls = new (string Name, Func<Task<HttpResponseMessage>> Send)[]
        {
            ("POST /orders", () => api.CreateAsync(Ids.NewCustomer(), idempotencyKey: Ids.NewKey())),
            ("GET /orders/{id}", () => api.GetAsync($"/orders/{id}")),
            ("POST /orders/{id}/pay", () => api.TransitionAsync(id, "pay")),
            ("POST /orders/{id}/ship", () => api.TransitionAsync(id, "ship", new { carrier = "C", trackingNumber = "T" })),
            ("POST /orders/{id}/complete", () => api.TransitionAsync(id, "complete")),
            ("POST /orders/{id}/cancel", () => api.TransitionAsync(id, "cancel")),
            ("POST /orders/batch", () => api.PostAsync("/orders/batch", new { ids = new[] { id } })),
            ("GET /customers/{id}/orders", () => api.GetAsync($"/customers/{Ids.NewCustomer()}/orders")),
        };
        foreach (var (name, send) in calls)
        {
            var clock = Stopwatch.StartNew();
            using var response = await send();
            clock.Elapsed.ShouldBeLessThan(StoreDownBound, $"{name} must fail fast when the store is down");
            await OrderApi.ReadProblemAsync(response, HttpStatusCode.ServiceUnavailable);
            (response.Headers.RetryAfter?.Delta ?? (response.Headers.RetryAfter?.Date - DateTimeOffset.UtcNow))
                .ShouldNotBeNull($"{name}: a 503 must say when to retry (Retry-After)");
        }
    }

    /// <summary>On loopback with authorization off, the caller is an operator: /health/detail gives it the driver's
    /// reason, which /health/ready never shows.</summary>
    [Fact]
    public async Task Readiness_reports_a_store_that_is_down_with_the_status_alone_while_liveness_stays_up()
    {
        await using var factory = Store.CreateDownFactory();
        var port = FreePort.Loopback();
        factory.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));
        factory.StartServer();
        using var client = new HttpClient
        {
            BaseAddress = new Uri($"http://127.0.0.1:{port}/"),
            Timeout = TimeSpan.FromSeconds(60),
        };

        var clock = Stopwatch.StartNew();
        using var ready = await client.GetAsync("/health/ready", Ct);
        clock.Elapsed.ShouldBeLessThan(StoreDownBound);
        var problem = await OrderApi.ReadProblemAsync(ready, HttpStatusCode.ServiceUnavailable);
        var status = string.Join('\n', problem.Select(p => p.Value?.ToString()));

        using var detail = await client.GetAsync("/health/detail", Ct);
        var reason = (await OrderApi.ReadProblemAsync(detail, HttpStatusCode.ServiceUnavailable))["detail"]!
            .GetValue<string>();
        var driver = reason[(reason.IndexOf(": ", StringComparison.Ordinal) + 2)..];
        driver.ShouldNotBeNullOrWhiteSpace(reason);
        status.ShouldNotContain(driver, Case.Sensitive, "readiness answers its status alone");

        using var live = await client.GetAsync("/health/live", Ct);
        live.StatusCode.ShouldBe(HttpStatusCode.OK, "the process is alive; only the store is not");
    }
}
