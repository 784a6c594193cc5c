using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Text.Json.Nodes;
using OrderService.Integration.Tests.Api;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>
/// The rules around the matrix: claim shapes, the customer's view of a batch, what stays anonymous, Mode=None,
/// start-up checks.
/// </summary>
public sealed class AuthorizationRulesTests(AuthorizedSqlite service, ApiHost host) : IClassFixture<AuthorizedSqlite>, IClassFixture<ApiHost>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public static TheoryData<string, bool> ScopeClaims => new()
    {
        { "\"orders:read\"", true },
        { "\"orders:write orders:read\"", true },
        { "[\"orders:read\"]", true },
        { "[\"orders:write\", \"orders:read\"]", true },
        { "\"orders:write\"", false },
        { "[\"orders:write\"]", false },
        { "\"orders:readonly orders:rea\"", false },
        { "\"ORDERS:READ\"", false },
    };

    [Theory]
    [MemberData(nameof(ScopeClaims))]
    public async Task The_scope_claim_is_read_as_a_space_delimited_string_and_as_an_array(string scopeJson, bool grantsRead)
    {
        var scope = JsonNode.Parse(scopeJson) is JsonArray array ? array.Select(s => s!.GetValue<string>()).ToArray() : (object)JsonNode.Parse(scopeJson)!.GetValue<string>();
        var customer = Ids.NewCustomer();
        var order = await CreateAsync(customer);

        using var response = await SendAsync(HttpMethod.Get, $"/orders/{order.Id}", TestTokens.Create(scope, customer));

        response.StatusCode.ShouldBe(grantsRead ? HttpStatusCode.OK : HttpStatusCode.Forbidden, scopeJson);
    }

    [Fact]
    public async Task A_customer_token_gets_only_its_own_orders_from_a_batch()
    {
        var mine = Ids.NewCustomer();
        var own = new[] { await CreateAsync(mine), await CreateAsync(mine) };
        var others = new[] { await CreateAsync(Ids.NewCustomer()), await CreateAsync(Ids.NewCustomer()) };

        using var response = await SendAsync(HttpMethod.Post, "/orders/batch", TestTokens.Create("orders:read", mine),
            new { ids = own.Concat(others).Select(o => o.Id).ToArray() });

        (await OrderApi.ReadListAsync(response)).Select(o => o.Id).Order().ShouldBe(own.Select(o => o.Id).Order());
    }

    [Fact]
    public async Task A_token_with_two_customer_ids_is_refused()
    {
        var order = await CreateAsync("c-1");

        using var response = await SendAsync(HttpMethod.Get, $"/orders/{order.Id}", TestTokens.Create("orders:read", new[] { "c-1", "c-2" }));

        (await OrderApi.ReadProblemAsync(response, HttpStatusCode.Forbidden))["detail"]!.GetValue<string>().ShouldContain("more than one");
    }

    [Fact]
    public async Task A_token_signed_with_another_key_is_401()
    {
        var order = await CreateAsync(Ids.NewCustomer());

        var forged = TestTokens.Create("orders:read orders:admin", key: RandomNumberGenerator.GetBytes(32));
        using var response = await SendAsync(HttpMethod.Get, $"/orders/{order.Id}", forged);

        await OrderApi.ReadProblemAsync(response, HttpStatusCode.Unauthorized);
        response.Headers.WwwAuthenticate.ShouldHaveSingleItem().Parameter.ShouldNotBeNull().ShouldContain("invalid_token");
    }

    [Theory]
    [InlineData("/health/live")]
    [InlineData("/health/ready")]
    public async Task Health_needs_no_token(string path)
    {
        using var response = await service.Client.GetAsync(path, Ct);

        response.StatusCode.ShouldBe(HttpStatusCode.OK);
    }

    [Theory]
    [InlineData("/openapi/v1.json")]
    [InlineData("/swagger/index.html")]
    [InlineData("/no-such-path")]
    public async Task Every_other_path_needs_a_valid_token_by_the_fallback_policy(string path)
    {
        using var anonymous = await service.Client.GetAsync(path, Ct);
        using var authenticated = await SendAsync(HttpMethod.Get, path, TestTokens.Create("orders:read", "c-1"));

        var problem = await OrderApi.ReadProblemAsync(anonymous, HttpStatusCode.Unauthorized);
        problem["title"]!.GetValue<string>().ShouldBe("Unauthorized");
        authenticated.StatusCode.ShouldBe(path == "/no-such-path" ? HttpStatusCode.NotFound : HttpStatusCode.OK);
    }

    [Fact]
    public async Task With_Mode_None_every_endpoint_answers_without_a_token()
    {
        var customer = Ids.NewCustomer();
        var order = await ApiHost.CreateOrderAsync(host.Client, customer);

        using var read = await host.Client.GetAsync($"/orders/{order["id"]}", Ct);
        using var list = await host.Client.GetAsync($"/customers/{customer}/orders", Ct);
        using var pay = await host.Client.PostAsJsonAsync($"/orders/{order["id"]}/pay", new { }, Ct);

        (read.StatusCode, list.StatusCode, pay.StatusCode).ShouldBe((HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.OK));
    }

    public static TheoryData<string, string?, string> BadSections => new()
    {
        { "ValidAudiences:0", null, "ValidAudiences" },
        { "ValidIssuer", null, "ValidIssuer" },
        { "SigningKeys:0:Value", "not base64!", "SigningKeys:0:Value" },
        { "SigningKeys:0:Value", Convert.ToBase64String(new byte[16]), "SigningKeys:0:Value" },
        { "SigningKeys:0:Issuer", "someone-else", "SigningKeys" },
        { "SigningKeys:1:Issuer", TestTokens.Issuer, "SigningKeys" },
    };

    [Theory]
    [MemberData(nameof(BadSections))]
    public async Task A_bearer_section_that_would_let_every_token_through_or_none_stops_start_up_naming_the_key(string key, string? value, string named)
    {
        var settings = TestTokens.Settings.Where(s => s.Key != $"{TestTokens.Section}:{key}").Append(($"{TestTokens.Section}:{key}", value))
            .Append(($"{TestTokens.Section}:SigningKeys:1:Value", Convert.ToBase64String(RandomNumberGenerator.GetBytes(32)))).ToArray();
        await using var factory = host.Create(settings);

        var failure = Should.Throw<Exception>(() => factory.CreateClient());

        failure.ToString().ShouldContain($"{TestTokens.Section}:{named}");
    }

    private async Task<OrderDto> CreateAsync(string customer)
    {
        using var response = await SendAsync(HttpMethod.Post, "/orders", TestTokens.Operator(),
            new { customerId = customer, lines = new[] { new { sku = "SKU-1", quantity = 1, unitPrice = 1m } } });
        return await OrderApi.ReadOrderAsync(response, HttpStatusCode.Created);
    }

    private async Task<HttpResponseMessage> SendAsync(HttpMethod method, string path, string token, object? body = null)
    {
        using var request = new HttpRequestMessage(method, path) { Content = body is null ? null : JsonContent.Create(body) };
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return await service.Client.SendAsync(request, Ct);
    }
}
