using System.Diagnostics;
using System.Net;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// What the API answers while its store refuses it (a refused login, "too many clients", a file that is no
/// database): 503 with Retry-After as ProblemDetails on the write and the read path, within a bound, never a 500,
/// and the process stays live.
/// </summary>
internal static class StoreRefusal
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    /// <param name="settings">Store:Provider, the connection string the store refuses, and any store keys.</param>
    /// <param name="bound">How long one answer may take (the store's retries within its total time-out).</param>
    public static async Task AnswersUnavailableAsync(IReadOnlyDictionary<string, string?> settings, TimeSpan bound)
    {
        await using var factory = new OrderServiceFactory(new Dictionary<string, string?>(settings, StringComparer.OrdinalIgnoreCase));
        using var client = factory.CreateClient(); // the host starts although its store refuses it
        client.Timeout = bound + TimeSpan.FromSeconds(30);
        var api = new OrderApi(client, Ct);

        var calls = new (string Name, Func<Task<HttpResponseMessage>> Send)[]
        {
            ("POST /orders", () => api.CreateAsync(Ids.NewCustomer(), idempotencyKey: Ids.NewKey())),
            ("GET /orders/{id}", () => api.GetAsync($"/orders/{Guid.CreateVersion7()}")),
            ("POST /orders/{id}/pay", () => api.TransitionAsync(Guid.CreateVersion7(), "pay")),
        };
        foreach (var (name, send) in calls)
        {
            var clock = Stopwatch.StartNew();
            using var response = await send();
            clock.Elapsed.ShouldBeLessThan(bound, name);
            await OrderApi.ReadProblemAsync(response, HttpStatusCode.ServiceUnavailable);
            response.Headers.RetryAfter.ShouldNotBeNull($"{name}: a 503 must say when to retry");
        }

        using var live = await client.GetAsync("/health/live", Ct);
        live.StatusCode.ShouldBe(HttpStatusCode.OK);
    }
}
