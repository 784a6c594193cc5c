using System.CodeDom.Compiler;
using System.Net;
using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>
/// The handlers are bound by code the request delegate generator wrote at build time (the cold-start gain in
/// README depends on it): none is left to the runtime factory, which would compile expression trees while the
/// first request builds the endpoints. The listing parses ?limit= itself, so an unparsable one is still a problem
/// naming the field. No handler takes [AsParameters] without a body, the one shape for which the generator
/// declares a body of no type (which OpenAPI cannot describe).
/// </summary>
public sealed class GeneratedHandlersTests(ApiHost host) : IClassFixture<ApiHost>
{
    private const string Generator = "Microsoft.AspNetCore.Http.RequestDelegateGenerator,"; // then its version

    [Fact]
    public async Task Every_order_customer_and_health_endpoint_is_bound_by_generated_code()
    {
        await using var factory = host.Create();
        using var client = factory.CreateClient(); // starts the host, so the endpoints are built
        var endpoints = factory.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>().ToList();

        var generated = endpoints.Where(IsGenerated).Select(Name).ToList();
        var atRunTime = endpoints.Where(e => !IsGenerated(e)).Select(Name).ToList();

        generated.ShouldContain("POST /orders");
        generated.ShouldContain("POST /orders/{id}/pay");
        generated.ShouldContain("POST /orders/{id}/complete");
        generated.ShouldContain("GET /orders/{id}");
        generated.ShouldContain("POST /orders/batch");
        generated.ShouldContain("GET /health/ready");
        generated.ShouldContain("GET /customers/{customerId}/orders");
        atRunTime.ShouldNotContain(name => name.StartsWith("GET /customers", StringComparison.Ordinal) || name.Contains("/orders", StringComparison.Ordinal));
    }

    [Fact]
    public async Task No_endpoint_declares_a_body_without_a_type()
    {
        await using var factory = host.Create();
        using var client = factory.CreateClient();
        var untyped = factory.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetOrderedMetadata<IAcceptsMetadata>().Any(a => a.RequestType is null))
            .Select(Name);

        untyped.ShouldBeEmpty();
    }

    [Fact]
    public async Task A_step_without_a_body_takes_any_media_type_and_an_unparsable_limit_is_named()
    {
        var order = await ApiHost.CreateOrderAsync(host.Client, ApiHost.NewCustomer());
        using var text = new StringContent("", Encoding.UTF8, "text/plain");
        using var complete = await host.Client.PostAsync($"/orders/{order["id"]}/complete", text, ApiHost.Ct);
        complete.StatusCode.ShouldBe(HttpStatusCode.Conflict); // Created cannot complete: a 409, not a 415

        using var listing = await host.Client.GetAsync("/customers/c-1/orders?limit=abc", ApiHost.Ct);
        listing.StatusCode.ShouldBe(HttpStatusCode.BadRequest);
        (await listing.Content.ReadAsStringAsync(ApiHost.Ct)).ShouldContain("\"limit\"");

        // Parsed with the other fields, so both bad values are named in one problem.
        using var both = await host.Client.GetAsync("/customers/c-1/orders?limit=1e3&status=Lost", ApiHost.Ct);
        both.StatusCode.ShouldBe(HttpStatusCode.BadRequest);
        var problem = await both.Content.ReadAsStringAsync(ApiHost.Ct);
        problem.ShouldContain("'1e3' is not a valid value.");
        problem.ShouldContain("\"status\"");
    }

    private static bool IsGenerated(Endpoint endpoint) =>
        endpoint.Metadata.OfType<GeneratedCodeAttribute>().Any(a => a.Tool?.StartsWith(Generator, StringComparison.Ordinal) == true);

    private static string Name(RouteEndpoint endpoint) =>
        $"{string.Join(",", endpoint.Metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods ?? [])} {endpoint.RoutePattern.RawText?.TrimEnd('/')}";
}
