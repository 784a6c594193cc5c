using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>The OpenAPI document knows every outcome of every endpoint, with problems typed as application/problem+json.</summary>
public sealed class OpenApiDocumentTests(ApiHost host) : IClassFixture<ApiHost>
{
    public static TheoryData<string, string, string> Outcomes => new()
    {
        { "/orders", "post", "201 400 413 415 422 503" },
        { "/orders/{id}", "get", "200 400 404 503" },
        { "/orders/{id}/pay", "post", "200 400 402 404 409 413 415 422 503" },
        { "/orders/{id}/ship", "post", "200 400 404 409 413 415 422 503" },
        { "/orders/{id}/complete", "post", "200 400 404 409 422 503" },
        { "/orders/{id}/cancel", "post", "200 400 404 409 413 415 422 503" },
        { "/orders/batch", "post", "200 400 413 415 503" },
        { "/customers/{customerId}/orders", "get", "200 400 503" },
        { "/health/live", "get", "200" },
        { "/health/ready", "get", "200 503" },
    };

    [Theory]
    [MemberData(nameof(Outcomes))]
    public async Task Every_outcome_is_described_and_every_failure_is_a_problem(string path, string method, string statuses)
    {
        var operation = (await DocumentAsync())["paths"]![path]![method]!;
        var responses = operation["responses"]!.AsObject();

        responses.Select(r => r.Key).Order().ShouldBe(statuses.Split(' ').Order(), $"{method.ToUpperInvariant()} {path}");
        foreach (var (status, response) in responses.Where(r => r.Key[0] is '4' or '5'))
        {
            var content = response!["content"]!.AsObject();
            content.Select(c => c.Key).ShouldBe(["application/problem+json"], $"{status} of {path}");
            content["application/problem+json"]!["schema"]!["$ref"]!.GetValue<string>().ShouldEndWith("ProblemDetails");
        }
    }

    [Fact]
    public async Task A_503_tells_clients_about_Retry_After()
    {
        var document = await DocumentAsync();

        document["paths"]!["/orders/{id}/pay"]!["post"]!["responses"]!["503"]!["headers"]!["Retry-After"].ShouldNotBeNull();
    }

    [Fact]
    public async Task Schemas_state_the_wire_formats_of_timestamps_money_and_status()
    {
        var schemas = (await DocumentAsync())["components"]!["schemas"]!;
        var order = schemas["Order"]!["properties"]!;

        order["createdAt"]!["type"]!.GetValue<string>().ShouldBe("string");
        order["createdAt"]!["format"]!.GetValue<string>().ShouldBe("date-time");
        order["total"]!["type"]!.GetValue<string>().ShouldBe("number");
        schemas["OrderStatus"]!["enum"]!.AsArray().Select(v => v!.GetValue<string>())
            .ShouldBe(["Created", "Paid", "Shipped", "Completed", "Cancelled"]);
        schemas["HttpValidationProblemDetails"]!["properties"]!["errors"].ShouldNotBeNull();
    }

    [Fact]
    public async Task The_listing_query_documents_its_rules()
    {
        var parameters = (await DocumentAsync())["paths"]!["/customers/{customerId}/orders"]!["get"]!["parameters"]!.AsArray();
        var limit = parameters.Single(p => p!["name"]!.GetValue<string>() == "limit")!["schema"]!;
        var status = parameters.Single(p => p!["name"]!.GetValue<string>() == "status")!["schema"]!;

        (limit["minimum"]!.GetValue<int>(), limit["maximum"]!.GetValue<int>(), limit["default"]!.GetValue<int>()).ShouldBe((1, 1000, 100));
        status["enum"]!.AsArray().Count.ShouldBe(5);
    }

    [Theory]
    [InlineData("/orders", "post")]
    [InlineData("/orders/{id}/pay", "post")]
    [InlineData("/orders/{id}/ship", "post")]
    [InlineData("/orders/{id}/complete", "post")]
    [InlineData("/orders/{id}/cancel", "post")]
    public async Task Every_write_takes_an_optional_Idempotency_Key_and_says_what_it_does(string path, string method)
    {
        var parameters = (await DocumentAsync())["paths"]![path]![method]!["parameters"]!.AsArray();
        var key = parameters.Single(p => p!["name"]!.GetValue<string>() == "Idempotency-Key")!;

        key["in"]!.GetValue<string>().ShouldBe("header");
        (key["required"]?.GetValue<bool>() ?? false).ShouldBeFalse();
        key["description"]!.GetValue<string>().ShouldContain("422");
    }

    [Fact]
    public async Task The_listing_documents_its_cursor_and_its_Link_header()
    {
        var get = (await DocumentAsync())["paths"]!["/customers/{customerId}/orders"]!["get"]!;
        var cursor = get["parameters"]!.AsArray().Single(p => p!["name"]!.GetValue<string>() == "cursor")!;

        cursor["in"]!.GetValue<string>().ShouldBe("query");
        cursor["description"]!.GetValue<string>().ShouldContain("Link");
        get["responses"]!["200"]!["headers"]!["Link"]!["description"]!.GetValue<string>().ShouldContain("rel=\"next\"");
    }

    private async Task<JsonNode> DocumentAsync() =>
        (await host.Client.GetFromJsonAsync<JsonNode>("/openapi/v1.json", ApiHost.Ct))!;
}
