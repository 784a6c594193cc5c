using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>The declined-payment probe (Payments:*): off by default; when on, a matching pay holds its write, rolls it back and answers 402.</summary>
public sealed class PaymentProbeTests(ApiHost host) : IClassFixture<ApiHost>
{
    [Fact]
    public async Task With_the_probe_on_a_matching_reference_is_declined_with_402_after_the_delay_and_changes_nothing()
    {
        await using var factory = host.Create(("Payments:DeclineReferencePrefix", "declined-"), ("Payments:AuthorizationDelayMilliseconds", "150"));
        using var client = factory.CreateClient();
        var order = await ApiHost.CreateOrderAsync(client, ApiHost.NewCustomer());
        var id = order["id"]!.GetValue<string>();

        var clock = Stopwatch.StartNew();
        using var declined = await client.PostAsJsonAsync($"/orders/{id}/pay", new { paymentReference = "declined-42" }, ApiHost.Ct);
        clock.Elapsed.ShouldBeGreaterThanOrEqualTo(TimeSpan.FromMilliseconds(140), "the write is held for the authorization delay");

        declined.StatusCode.ShouldBe(HttpStatusCode.PaymentRequired);
        OrderApi.ShouldHaveMediaType(declined, "application/problem+json");
        var after = (await client.GetFromJsonAsync<JsonObject>($"/orders/{id}", ApiHost.Ct))!;
        after["status"]!.GetValue<string>().ShouldBe("Created");
        after["version"]!.GetValue<int>().ShouldBe(1);
        after["events"]!.AsArray().Count.ShouldBe(1);

        using var accepted = await client.PostAsJsonAsync($"/orders/{id}/pay", new { paymentReference = "card-42" }, ApiHost.Ct);
        accepted.StatusCode.ShouldBe(HttpStatusCode.OK, "only references with the prefix are declined");
    }

    [Fact]
    public async Task By_default_no_reference_is_declined()
    {
        var order = await ApiHost.CreateOrderAsync(host.Client, ApiHost.NewCustomer());

        using var paid = await host.Client.PostAsJsonAsync($"/orders/{order["id"]}/pay", new { paymentReference = "declined-42" }, ApiHost.Ct);

        paid.StatusCode.ShouldBe(HttpStatusCode.OK);
    }
}
