using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
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
        { "/orders/{id}/pay", "post", "200 400 404 409 413 415 422 503" },
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
        schemas["OrderStatus"]!["type"]!.GetValue<string>().ShouldBe("string");
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

    private const string Printable = "minLength=1 maxLength=64 pattern=" + RequestLimits.PrintablePattern;

    [Fact]
    public async Task The_limits_of_the_contract_are_schema_keywords()
    {
        var document = await DocumentAsync();
        var schemas = document["components"]!["schemas"]!;
        var create = schemas["CreateOrderRequest"]!["properties"]!;
        var line = schemas["CreateOrderLine"]!["properties"]!;

        Keywords(create["customerId"]!).ShouldBe("minLength=1 maxLength=64 pattern=^[A-Za-z0-9_-]{1,64}$");
        Keywords(create["lines"]!).ShouldBe("minItems=1 maxItems=100");
        Keywords(line["sku"]!).ShouldBe(Printable);
        Keywords(line["quantity"]!).ShouldBe("minimum=1 maximum=1000");
        Keywords(line["unitPrice"]!).ShouldBe("minimum=0 maximum=1000000");
        Keywords(schemas["PayOrderRequest"]!["properties"]!["paymentReference"]!)
            .ShouldBe("maxLength=128 pattern=" + RequestLimits.PrintablePattern);
        Keywords(schemas["ShipOrderRequest"]!["properties"]!["carrier"]!).ShouldBe(Printable);
        Keywords(schemas["ShipOrderRequest"]!["properties"]!["trackingNumber"]!).ShouldBe(Printable);
        Keywords(schemas["CancelOrderRequest"]!["properties"]!["reason"]!)
            .ShouldBe("maxLength=500 pattern=" + RequestLimits.PrintablePattern);
        Keywords(schemas["OrderBatchRequest"]!["properties"]!["ids"]!).ShouldBe("minItems=1 maxItems=1000");

        var listing = document["paths"]!["/customers/{customerId}/orders"]!["get"]!["parameters"]!.AsArray();
        Keywords(listing.Single(p => p!["name"]!.GetValue<string>() == "customerId")!["schema"]!).ShouldBe("minLength=1 maxLength=64 pattern=^[A-Za-z0-9_-]{1,64}$");
        var key = document["paths"]!["/orders"]!["post"]!["parameters"]!.AsArray().Single(p => p!["name"]!.GetValue<string>() == "Idempotency-Key")!;
        Keywords(key["schema"]!).ShouldBe("minLength=1 maxLength=128 pattern=^[ -~]{1,128}$");
    }

    [Theory]
    [InlineData("CreateOrderRequest", "customerId lines", "")]
    [InlineData("CreateOrderLine", "sku quantity unitPrice", "")]
    [InlineData("ShipOrderRequest", "carrier trackingNumber", "")]
    [InlineData("OrderBatchRequest", "ids", "")]
    [InlineData("PayOrderRequest", "", "paymentReference")]
    [InlineData("CancelOrderRequest", "", "reason")]
    public async Task Required_request_fields_are_not_nullable_and_optional_ones_are_not_required(string schema, string required, string optional)
    {
        var body = (await DocumentAsync())["components"]!["schemas"]![schema]!;
        var requiredFields = required.Split(' ', StringSplitOptions.RemoveEmptyEntries);

        (body["required"]?.AsArray().Select(r => r!.GetValue<string>()) ?? []).Order().ShouldBe(requiredFields.Order());
        foreach (var field in requiredFields)
        {
            body["properties"]![field]!["type"]!.GetValueKind().ShouldBe(System.Text.Json.JsonValueKind.String, $"{schema}.{field} is required, so not nullable");
        }

        foreach (var field in optional.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            body["properties"]![field]!["type"]!.AsArray().Select(t => t!.GetValue<string>()).ShouldContain("null", $"{schema}.{field} may be null");
        }
    }

    [Fact]
    public async Task Every_operation_has_a_summary_and_a_description_and_every_tag_a_description()
    {
        var document = await DocumentAsync();

        document["servers"]!.AsArray().ShouldAllBe(server => !server!["url"]!.GetValue<string>().EndsWith('/'));
        document["tags"]!.AsArray().ShouldAllBe(tag => !string.IsNullOrWhiteSpace((string?)tag!["description"]));
        foreach (var (path, methods) in document["paths"]!.AsObject())
        {
            foreach (var (method, operation) in methods!.AsObject())
            {
                ((string?)operation!["summary"]).ShouldNotBeNullOrWhiteSpace($"{method} {path}");
                ((string?)operation["description"]).ShouldNotBeNullOrWhiteSpace($"{method} {path}");
            }
        }
    }

    private static string Keywords(JsonNode schema) => string.Join(' ',
        new[] { "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern" }
            .Where(k => schema[k] is not null)
            .Select(k => $"{k}={(schema[k] is JsonValue v && v.TryGetValue<string>(out var text)
                ? text : schema[k]!.ToJsonString())}"));

    [Fact]
    public async Task Every_operation_is_summarised_by_its_route_not_by_the_handler_s_code_comment()
    {
        // A handler's XML doc comment becomes its operation's summary unless the route sets one; the routes set
        // theirs, so a comment written for maintainers never reaches the published contract.
        await using var factory = host.Create();
        using var client = factory.CreateClient();
        var paths = (await client.GetFromJsonAsync<JsonNode>("/openapi/v1.json", ApiHost.Ct))!["paths"]!;
        var routes = factory.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetMetadata<IEndpointSummaryMetadata>() is not null && e.Metadata.GetMetadata<HttpMethodMetadata>() is not null)
            .ToList();

        routes.Count.ShouldBeGreaterThanOrEqualTo(10);
        foreach (var route in routes)
        {
            var path = System.Text.RegularExpressions.Regex.Replace("/" + route.RoutePattern.RawText!.TrimStart('/'), @"\{(\w+)[^}]*\}", "{$1}").TrimEnd('/');
            foreach (var method in route.Metadata.GetMetadata<HttpMethodMetadata>()!.HttpMethods)
            {
                var operation = paths[path]?[method.ToLowerInvariant()];
                operation.ShouldNotBeNull($"{method} {path} is in the document");
                var summary = operation["summary"]?.GetValue<string>();
                summary.ShouldBe(route.Metadata.GetMetadata<IEndpointSummaryMetadata>()!.Summary, $"{method} {path}");
            }
        }
    }

    private async Task<JsonNode> DocumentAsync() =>
        (await host.Client.GetFromJsonAsync<JsonNode>("/openapi/v1.json", ApiHost.Ct))!;
}
