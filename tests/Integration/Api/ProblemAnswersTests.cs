using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json.Nodes;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>
/// Failures that never reach a handler (routing, media type, JSON binding) still answer
/// application/problem+json, with the same field keys our own validation uses.
/// </summary>
public sealed class ProblemAnswersTests(ApiHost host) : IClassFixture<ApiHost>
{
    [Fact]
    public async Task An_unknown_path_is_a_404_problem() =>
        await ShouldBeProblemAsync(await host.Client.GetAsync("/no-such-thing", ApiHost.Ct), HttpStatusCode.NotFound);

    [Fact]
    public async Task A_wrong_method_is_a_405_problem() =>
        await ShouldBeProblemAsync(await host.Client.DeleteAsync($"/orders/{Guid.CreateVersion7()}", ApiHost.Ct), HttpStatusCode.MethodNotAllowed);

    [Fact]
    public async Task An_Accept_header_without_JSON_still_gets_the_problem()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/no-such-thing");
        request.Headers.TryAddWithoutValidation("Accept", "text/html");

        var problem = await ShouldBeProblemAsync(await host.Client.SendAsync(request, ApiHost.Ct), HttpStatusCode.NotFound);

        problem["title"]!.GetValue<string>().ShouldBe("Not Found");
        problem["traceId"].ShouldNotBeNull("a client report finds the log line by it");
    }

    [Theory]
    [InlineData("{\"customerId\":\"c1\",\"lines\":[{\"sku\":\"A\",\"quantity\":\"2\",\"unitPrice\":1}]}", "lines[0].quantity")]
    [InlineData("{\"customerId\":\"c1\",\"lines\":[{\"sku\":\"A\",\"quantity\":1,\"unitPrice\":1},{\"sku\":\"B\",\"quantity\":1,\"unitPrice\":\"1.00\"}]}", "lines[1].unitPrice")]
    [InlineData("{\"customerId\":7,\"lines\":[]}", "customerId")]
    [InlineData("null", "body")]
    [InlineData("[]", "body")]
    public async Task A_body_the_binder_rejects_names_the_field_like_validation_does(string body, string field)
    {
        using var content = new StringContent(body, Encoding.UTF8, "application/json");
        var problem = await ShouldBeProblemAsync(await host.Client.PostAsync("/orders", content, ApiHost.Ct), HttpStatusCode.BadRequest);

        problem["errors"]!.AsObject().Select(e => e.Key).ShouldContain(field);
    }

    [Theory]
    [InlineData("*", HttpStatusCode.OK)]
    [InlineData("\"1\"", HttpStatusCode.OK)]
    [InlineData("W/\"1\"", HttpStatusCode.BadRequest)]
    [InlineData("\"1\", \"2\"", HttpStatusCode.BadRequest)]
    [InlineData("\"0\"", HttpStatusCode.BadRequest)]
    public async Task If_Match_takes_one_strong_version_or_a_star(string ifMatch, HttpStatusCode expected)
    {
        var order = await ApiHost.CreateOrderAsync(host.Client, ApiHost.NewCustomer());
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/orders/{order["id"]}/pay");
        request.Headers.TryAddWithoutValidation("If-Match", ifMatch);

        using var response = await host.Client.SendAsync(request, ApiHost.Ct);

        response.StatusCode.ShouldBe(expected, await response.Content.ReadAsStringAsync(ApiHost.Ct));
    }

    [Fact]
    public async Task Responses_carry_the_version_as_a_strong_ETag_and_a_replay_is_marked()
    {
        var body = ApiHost.ValidOrder(ApiHost.NewCustomer());
        var key = Guid.NewGuid().ToString("N");
        using var first = await PostWithKeyAsync(body, key);
        using var replay = await PostWithKeyAsync(body, key);
        var id = (await first.Content.ReadFromJsonAsync<JsonObject>(ApiHost.Ct))!["id"]!.GetValue<string>();
        using var paid = await host.Client.PostAsync($"/orders/{id}/pay", null, ApiHost.Ct);

        first.Headers.ETag!.ToString().ShouldBe("\"1\"", "a strong ETag: If-Match compares strongly");
        first.Headers.Contains("Idempotent-Replayed").ShouldBeFalse();
        replay.StatusCode.ShouldBe(HttpStatusCode.Created);
        replay.Headers.Location.ShouldBe(first.Headers.Location);
        replay.Headers.GetValues("Idempotent-Replayed").ShouldBe(["true"]);
        paid.Headers.ETag!.ToString().ShouldBe("\"2\"");
    }

    private async Task<HttpResponseMessage> PostWithKeyAsync(JsonObject body, string key)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "/orders") { Content = JsonContent.Create(body) };
        request.Headers.Add("Idempotency-Key", key);
        return await host.Client.SendAsync(request, ApiHost.Ct);
    }

    private static async Task<JsonObject> ShouldBeProblemAsync(HttpResponseMessage response, HttpStatusCode status)
    {
        using (response)
        {
            response.StatusCode.ShouldBe(status);
            OrderApi.ShouldHaveMediaType(response, "application/problem+json");
            var problem = (await response.Content.ReadFromJsonAsync<JsonObject>(ApiHost.Ct))!;
            problem["status"]!.GetValue<int>().ShouldBe((int)status);
            return problem;
        }
    }
}
