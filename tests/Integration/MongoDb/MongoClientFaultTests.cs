using System.Diagnostics;
using System.Net;
using OrderService.Data;
using OrderService.Integration.Tests.Conformance;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.MongoDb;

/// <summary>
/// The MongoDB store's client side, for real, with no server: Store:Provider=MongoDb pointed at a closed loopback port.
/// The driver cannot select a server within the bounded server-selection timeout and throws a TimeoutException, the
/// store calls it transient, the resilience pipeline retries within its budget, and the API answers 503 with
/// Retry-After; the process stays healthy. These run everywhere, unlike the conformance suite.
/// </summary>
public sealed class MongoClientFaultTests : IAsyncLifetime
{
    private static readonly TimeSpan Bound = ConformanceSuite<MongoStore>.StoreDownBound;

    private readonly OrderServiceFactory _factory = new(new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase)
    {
        ["Store:Provider"] = nameof(StoreProvider.MongoDb),
        [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = MongoDown.ConnectionString(),
        ["Store:MongoDb:W"] = "majority",
        ["Store:MongoDb:Journal"] = "true",
    });

    private HttpClient _client = null!;

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
        var api = new OrderApi(_client);

        var clock = Stopwatch.StartNew();
        using var response = await api.CreateAsync(Ids.NewCustomer(), idempotencyKey: Ids.NewKey());
        clock.Elapsed.ShouldBeLessThan(Bound);

        await OrderApi.ReadProblemAsync(response, HttpStatusCode.ServiceUnavailable);
        response.Headers.RetryAfter.ShouldNotBeNull("a 503 must say when to retry");
    }

    [Fact]
    public async Task Reads_transitions_batches_and_listings_give_503_within_the_bound()
    {
        var api = new OrderApi(_client);
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

        using (var live = await _client.GetAsync("/health/live", Ct))
        {
            live.StatusCode.ShouldBe(HttpStatusCode.OK);
        }

        using var again = await new OrderApi(_client).CreateAsync(Ids.NewCustomer());
        again.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
        using var liveAfter = await _client.GetAsync("/health/live", Ct);
        liveAfter.StatusCode.ShouldBe(HttpStatusCode.OK);
    }
}

/// <summary>A bad MongoDB setting stops start-up with a message that names its key (no server needed).</summary>
public sealed class MongoStartupValidationTests
{
    [Theory]
    [InlineData("Store:MongoDb:W", "0")]
    [InlineData("Store:MongoDb:W", "most")]
    [InlineData("Store:MongoDb:WTimeoutMilliseconds", "60000")]
    [InlineData("Store:MongoDb:ReadConcern", "Linearizable")]
    [InlineData("Store:MongoDb:ReadPreference", "Anywhere")]
    [InlineData("ConnectionStrings:Orders", "Host=127.0.0.1;Database=orders")]
    public async Task A_bad_setting_stops_start_up_naming_its_key(string key, string value)
    {
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = nameof(StoreProvider.MongoDb),
            [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = MongoDown.ConnectionString(),
            [key] = value,
        };
        await using var factory = new OrderServiceFactory(settings);

        var failure = Should.Throw<Exception>(() => factory.CreateClient());

        // OptionsValidationException from the validators; InvalidOperationException from the binder for an unknown enum name.
        var messages = new List<string>();
        for (var current = (Exception?)failure; current is not null; current = current.InnerException)
        {
            messages.Add(current.Message);
        }

        messages.ShouldContain(m => m.Contains(key, StringComparison.Ordinal));
    }
}
