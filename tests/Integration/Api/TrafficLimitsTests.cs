using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using Npgsql;
using OrderService.Integration.Tests.Authorization;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>The rate limiter (per token subject, else per address) and the request time-out, through HTTP.</summary>
public sealed class TrafficLimitsTests(PostgresServer server)
{
    private const int PermitLimit = 3;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.SQLite)]
    public async Task A_subject_over_its_limit_gets_429_with_Retry_After_and_another_subject_does_not()
    {
        await using var factory = new OrderServiceFactory(SqliteSettings(TestTokens.Settings));
        using var client = factory.CreateClient();

        for (var i = 0; i < PermitLimit; i++)
        {
            using var allowed = await ReadAsync(client, TestTokens.Operator("first"));
            allowed.StatusCode.ShouldBe(HttpStatusCode.NotFound);
        }

        await ShouldBeLimitedAsync(await ReadAsync(client, TestTokens.Operator("first")));
        using var other = await ReadAsync(client, TestTokens.Operator("second"));
        other.StatusCode.ShouldBe(HttpStatusCode.NotFound, "each subject has a limit of its own");
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.SQLite)]
    public async Task An_anonymous_address_over_its_limit_gets_429_but_health_is_not_limited()
    {
        await using var factory = new OrderServiceFactory(SqliteSettings([]));
        using var client = factory.CreateClient();

        for (var i = 0; i < PermitLimit; i++)
        {
            using var allowed = await ReadAsync(client, token: null);
            allowed.StatusCode.ShouldBe(HttpStatusCode.NotFound);
        }

        await ShouldBeLimitedAsync(await ReadAsync(client, token: null));
        using var live = await client.GetAsync("/health/live", Ct);
        live.StatusCode.ShouldBe(HttpStatusCode.OK);
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    public async Task A_request_past_its_time_out_gets_503_with_Retry_After()
    {
        var postgres = await server.GetAsync();
        var connectionString = await postgres.CreateDatabaseAsync("timeouts", Ct);
        await using var factory = new OrderServiceFactory(new Dictionary<string, string?>
        {
            ["Store:Provider"] = "PostgreSql",
            ["Store:PostgreSql:GroupCommit"] = "false",
            ["ConnectionStrings:Orders"] = connectionString,
            ["RequestTimeouts:Seconds"] = "5",

            // Only the request's time-out can end the pay: the store's own bounds are far beyond it.
            ["Resilience:AttemptTimeoutSeconds"] = "120",
            ["Resilience:TotalTimeoutSeconds"] = "120",
            ["Store:CommandTimeoutSeconds"] = "120",
        });
        var api = new OrderApi(factory.CreateClient(), Ct);
        var (customer, key) = (Ids.NewCustomer(), Ids.NewKey());
        using var created = await OrderApi.RetryUnavailableAsync(
            () => api.CreateAsync(customer, idempotencyKey: key), Ct);
        var order = await OrderApi.ReadOrderAsync(created, HttpStatusCode.Created);

        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(Ct);
        var held = await HeldPay.HoldAsync(connection, order.Id, async () =>
        {
            var clock = Stopwatch.StartNew();
            using var pay = await api.TransitionAsync(order.Id, "pay");
            var problem = await OrderApi.ReadProblemAsync(pay, HttpStatusCode.ServiceUnavailable);
            problem["title"]!.GetValue<string>().ShouldBe("Request timed out");
            pay.Headers.RetryAfter?.Delta.ShouldNotBeNull().ShouldBeGreaterThan(TimeSpan.Zero);
            clock.Elapsed.ShouldBeLessThan(TimeSpan.FromSeconds(90), "the time-out answered, not the store's bounds");
        }, Ct);
        held.ShouldBeTrue();
    }

    private static Dictionary<string, string?> SqliteSettings(IEnumerable<(string Key, string? Value)> extra)
    {
        var file = Path.Combine(Directory.CreateTempSubdirectory("orders-limits-").FullName, "orders.db");
        var settings = new Dictionary<string, string?>
        {
            ["ConnectionStrings:Orders"] = $"Data Source={file}",
            ["RateLimiting:PermitLimit"] = PermitLimit.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["RateLimiting:WindowSeconds"] = "3600",
        };
        foreach (var (key, value) in extra)
        {
            settings[key] = value;
        }

        return settings;
    }

    private static Task<HttpResponseMessage> ReadAsync(HttpClient client, string? token)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, $"/orders/{Guid.CreateVersion7()}");
        request.Headers.Authorization = token is null ? null : new AuthenticationHeaderValue("Bearer", token);
        return client.SendAsync(request, Ct);
    }

    private static async Task ShouldBeLimitedAsync(HttpResponseMessage response)
    {
        using (response)
        {
            await OrderApi.ReadProblemAsync(response, HttpStatusCode.TooManyRequests);
            response.Headers.RetryAfter?.Delta.ShouldNotBeNull().ShouldBeGreaterThan(TimeSpan.Zero);
        }
    }
}
