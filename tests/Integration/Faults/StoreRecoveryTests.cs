using System.Net;
using System.Net.Http.Json;
using Microsoft.Extensions.Options;
using OrderService.Integration.Tests.Api;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// The resilience decorator's promises at the HTTP edge: the service starts with its store down, answers
/// 503 meanwhile, and serves again by itself once the store is back (the schema gate retries).
/// Bad resilience settings stop start-up with a message that names the key.
/// </summary>
public sealed class StoreRecoveryTests(ApiHost host) : IClassFixture<ApiHost>
{
    [Fact]
    public async Task A_service_started_while_its_store_is_down_recovers_by_itself()
    {
        // A directory where the database file should be: SQLite cannot open it (CANTOPEN, a transient fault).
        var file = host.PathFor($"late-{Guid.NewGuid():N}.db");
        Directory.CreateDirectory(file);
        await using var factory = host.Create(("ConnectionStrings:Orders", $"Data Source={file}"), ("Resilience:MaxRetries", "0"));
        using var client = factory.CreateClient();

        using (var down = await client.GetAsync("/health/ready", ApiHost.Ct))
        {
            down.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
        }

        using (var refused = await client.PostAsJsonAsync("/orders", ApiHost.ValidOrder(ApiHost.NewCustomer()), ApiHost.Ct))
        {
            refused.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
            refused.Headers.RetryAfter.ShouldNotBeNull();
        }

        Directory.Delete(file);

        using (var ready = await client.GetAsync("/health/ready", ApiHost.Ct))
        {
            ready.StatusCode.ShouldBe(HttpStatusCode.OK, await ready.Content.ReadAsStringAsync(ApiHost.Ct));
        }

        using var created = await client.PostAsJsonAsync("/orders", ApiHost.ValidOrder(ApiHost.NewCustomer()), ApiHost.Ct);
        created.StatusCode.ShouldBe(HttpStatusCode.Created, "the schema is created on the first call that reaches the store");
    }

    [Theory]
    [InlineData("Resilience:AttemptTimeoutSeconds", "10")]
    [InlineData("Resilience:MaxRetries", "-1")]
    [InlineData("Resilience:RetryAfterSeconds", "0")]
    [InlineData("Resilience:CircuitFailureRatio", "0")]
    [InlineData("Resilience:CircuitFailureRatio", "1.5")]
    [InlineData("Resilience:CircuitMinimumThroughput", "1")]
    [InlineData("Resilience:CircuitSamplingSeconds", "0")]
    [InlineData("Resilience:CircuitBreakSeconds", "0")]
    [InlineData("Store:SqlServer:ReadConnectionString", "Server=127.0.0.1;Database=orders")] // set while the store is SQLite
    [InlineData("Store:PostgreSql:ReadConnectionString", "Host=127.0.0.1;Database=orders")]
    public async Task A_bad_setting_stops_start_up_naming_its_key(string key, string value)
    {
        await using var factory = host.Create((key, value));

        var failure = Should.Throw<OptionsValidationException>(() => factory.CreateClient());

        failure.Message.ShouldContain(key);
        await Task.CompletedTask;
    }

    [Fact]
    public async Task A_secondary_connection_string_that_does_not_parse_stops_start_up_with_one_line_that_hides_it()
    {
        await using var factory = host.Create(
            ("Store:Provider", "SqlServer"),
            ("ConnectionStrings:Orders", "Server=127.0.0.1;Database=orders;User ID=orders;Password=unused"),
            ("Store:SqlServer:ReadConnectionString", "Sever=127.0.0.1;Pasword=secret"));

        var failure = Should.Throw<OptionsValidationException>(() => factory.CreateClient());

        var line = failure.Failures.ShouldHaveSingleItem();
        line.ShouldStartWith("Invalid setting Store:SqlServer:ReadConnectionString = (value hidden");
        line.ShouldNotContain("secret");
        await Task.CompletedTask;
    }
}
