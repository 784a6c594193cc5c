using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>
/// Every cell of the matrix in docs/authorization.md (<see cref="AuthorizationCases"/> reads it) through HTTP, against
/// a real store: the status the page gives, and the answer's shape. A refused request must change nothing: the order
/// keeps its status and version, and a refused create makes no order.
/// </summary>
public abstract class AuthorizationMatrix<TService>(TService service) : IClassFixture<TService>
    where TService : AuthorizedService
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [MemberData(nameof(AuthorizationCases.Matrix), MemberType = typeof(AuthorizationCases))]
    public async Task Each_route_answers_each_kind_of_token_as_the_page_says(
        string route, string scope, string credential, int status)
    {
        var test = AuthorizationCases.Endpoints[route];
        var expected = (HttpStatusCode)status;
        var target = await PrepareAsync(test.StepsBefore);
        var before = await ReadAsync(target.OrderId);

        using var request = test.Request(target);
        if (AuthorizationCases.TokenFor(credential, scope, target.Owner) is { } token)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        }

        using var response = await service.Client.SendAsync(request, Ct);

        var granted = credential is "right" or "admin" && (int)expected < 300;
        switch (expected)
        {
            case HttpStatusCode.Unauthorized:
                await ShouldBeChallengedAsync(
                    response, credential switch { "wrong-audience" => "audience", "expired" => "expired", _ => null });
                break;
            case HttpStatusCode.Forbidden:
                var detail = (await OrderApi.ReadProblemAsync(response, expected))["detail"]!.GetValue<string>();
                detail.ShouldContain(
                    credential switch { "wrong-scope" => scope, "no-customer" => "orders:admin", _ => "customer_id" });
                break;
            case HttpStatusCode.NotFound:
                await ShouldAnswerStrangerAsync(response, expected, target);
                break;
            default:
                await (granted
                    ? ShouldAnswerOwnerAsync(response, expected, target)
                    : ShouldAnswerStrangerAsync(response, expected, target));
                break;
        }

        var after = await ReadAsync(target.OrderId);
        if (granted && route.StartsWith("POST /orders/{id}/", StringComparison.Ordinal))
        {
            after.Version.ShouldBe(before.Version + 1, $"{route} with {credential} is one step");
        }
        else
        {
            (after.Status, after.Version)
                .ShouldBe((before.Status, before.Version), $"{route} with {credential} must not change the order");
        }

        var owned = await OperatorAsync<List<OrderDto>>($"/customers/{target.Owner}/orders");
        owned.Count.ShouldBe(route == "POST /orders" && granted ? 2 : 1, "only a granted create makes an order");
    }

    /// <summary>A fresh customer with one order, moved (by an operator token) into the status the endpoint needs.</summary>
    private async Task<Target> PrepareAsync(string[] steps)
    {
        var owner = Ids.NewCustomer();
        using var create = new HttpRequestMessage(HttpMethod.Post, "/orders")
        {
            Content = JsonContent.Create(new { customerId = owner, lines = new[] { new { sku = "SKU-1", quantity = 2, unitPrice = 19.99m } } }),
        };
        var order = await OperatorSendAsync<OrderDto>(create, HttpStatusCode.Created);
        foreach (var step in steps)
        {
            using var transition = new HttpRequestMessage(HttpMethod.Post, $"/orders/{order.Id}/{step}")
            {
                Content = step == "ship" ? JsonContent.Create(new { carrier = "DHL", trackingNumber = "T-0" }) : JsonContent.Create(new { }),
            };
            await OperatorSendAsync<OrderDto>(transition, HttpStatusCode.OK);
        }

        return new Target(order.Id, owner);
    }

    private Task<OrderDto> ReadAsync(Guid id) => OperatorAsync<OrderDto>($"/orders/{id}");

    private async Task<T> OperatorAsync<T>(string path)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        return await OperatorSendAsync<T>(request, HttpStatusCode.OK);
    }

    private async Task<T> OperatorSendAsync<T>(HttpRequestMessage request, HttpStatusCode expected)
    {
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", TestTokens.Operator());
        using var response = await service.Client.SendAsync(request, Ct);
        await OrderApi.ShouldHaveStatusAsync(response, expected);
        return (await response.Content.ReadFromJsonAsync<T>(OrderApi.Json, Ct))!;
    }

    private static async Task ShouldBeChallengedAsync(HttpResponseMessage response, string? tokenError)
    {
        var problem = await OrderApi.ReadProblemAsync(response, HttpStatusCode.Unauthorized);
        problem["title"]!.GetValue<string>().ShouldBe("Unauthorized");
        var challenge = response.Headers.WwwAuthenticate.ShouldHaveSingleItem();
        challenge.Scheme.ShouldBe("Bearer");
        if (tokenError is null)
        {
            challenge.Parameter.ShouldBeNull("no token sent: a bare challenge");
        }
        else
        {
            challenge.Parameter.ShouldNotBeNull().ShouldContain("error=\"invalid_token\"");
            challenge.Parameter.ShouldContain(tokenError, Case.Insensitive);
        }
    }

    private static async Task ShouldAnswerStrangerAsync(HttpResponseMessage response, HttpStatusCode expected, Target target)
    {
        if (expected == HttpStatusCode.OK)
        {
            (await OrderApi.ReadListAsync(response)).ShouldBeEmpty("a stranger's batch leaves out the orders that are not theirs");
            return;
        }

        var problem = await OrderApi.ReadProblemAsync(response, expected);
        if (expected == HttpStatusCode.NotFound)
        {
            // Exactly the answer for an order that does not exist: nothing tells the stranger it does.
            problem["type"]!.GetValue<string>().ShouldBe("urn:orderservice:problem:order-not-found");
            problem["detail"]!.GetValue<string>().ShouldBe($"There is no order {target.OrderId}.");
            response.Headers.ETag.ShouldBeNull();
        }
    }

    private static async Task ShouldAnswerOwnerAsync(HttpResponseMessage response, HttpStatusCode expected, Target target)
    {
        await OrderApi.ShouldHaveStatusAsync(response, expected);
        var body = JsonNode.Parse(await response.Content.ReadAsStringAsync(Ct))!;
        if (body is JsonArray list)
        {
            list.Select(o => o!["id"]!.GetValue<Guid>()).ShouldBe([target.OrderId]);
        }
        else
        {
            body["customerId"]!.GetValue<string>().ShouldBe(target.Owner);
        }
    }
}

[Trait(StoreTraits.Store, StoreTraits.SQLite)]
public sealed class SqliteAuthorizationMatrix(AuthorizedSqlite service) : AuthorizationMatrix<AuthorizedSqlite>(service);

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresAuthorizationMatrix(AuthorizedPostgres service) : AuthorizationMatrix<AuthorizedPostgres>(service);
