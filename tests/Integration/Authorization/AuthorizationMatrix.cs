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
/// Every endpoint x {no token, wrong audience, expired, wrong scope, other customer, right} through HTTP, against
/// a real store. A refused request must change nothing: the order keeps its status and version, and a refused
/// create makes no order.
/// </summary>
public abstract class AuthorizationMatrix<TService>(TService service) : IClassFixture<TService>
    where TService : AuthorizedService
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [MemberData(nameof(AuthorizationCases.Matrix), MemberType = typeof(AuthorizationCases))]
    public async Task Each_endpoint_answers_each_kind_of_token_as_the_contract_says(string endpoint, string credential)
    {
        var test = AuthorizationCases.Endpoints[endpoint];
        var target = await PrepareAsync(test.StepsBefore);
        var before = await ReadAsync(target.OrderId);

        using var request = test.Request(target);
        if (AuthorizationCases.TokenFor(credential, test.Scope, target.Owner) is { } token)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        }

        using var response = await service.Client.SendAsync(request, Ct);

        switch (credential)
        {
            case "none":
                await ShouldBeChallengedAsync(response, tokenError: null);
                break;
            case "wrong-audience":
                await ShouldBeChallengedAsync(response, tokenError: "audience");
                break;
            case "expired":
                await ShouldBeChallengedAsync(response, tokenError: "expired");
                break;
            case "wrong-scope":
                (await OrderApi.ReadProblemAsync(response, HttpStatusCode.Forbidden))["detail"]!.GetValue<string>().ShouldContain(test.Scope);
                break;
            case "other-customer":
                await ShouldAnswerStrangerAsync(response, test.Stranger, target);
                break;
            default:
                await ShouldAnswerOwnerAsync(response, test.Owner, target);
                break;
        }

        var after = await ReadAsync(target.OrderId);
        if (credential != "right" || endpoint is "create" or "get" or "batch" or "listing")
        {
            (after.Status, after.Version).ShouldBe((before.Status, before.Version), $"{endpoint} with {credential} must not change the order");
        }
        else
        {
            after.Version.ShouldBe(before.Version + 1, $"{endpoint} with the right token is one step");
        }

        var owned = await OperatorAsync<List<OrderDto>>($"/customers/{target.Owner}/orders");
        owned.Count.ShouldBe(endpoint == "create" && credential == "right" ? 2 : 1, "only the owner's create with the right token makes an order");
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
