using System.Net.Http.Headers;
using System.Text.Json.Nodes;
using OrderService.Data;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Model;

/// <summary>
/// Issue 11 §3 against one store and layout: random command sequences checked against the model through HTTP
/// and through the port, and malformed bodies that must get a 4xx problem and change nothing. A store joins
/// with one empty class (see ModelBasedStores.cs) that carries the store's traits, so scripts/test.sh counts it there.
/// </summary>
public abstract class ModelBasedSuite<TStore> : IClassFixture<TStore>
    where TStore : StoreFixture
{
    protected ModelBasedSuite(TStore store)
    {
        Store = store;
        if (store.UnavailableReason is { } reason)
        {
            Assert.Skip(reason);
        }
    }

    protected TStore Store { get; }

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Random_command_sequences_agree_with_the_model_through_HTTP_and_the_port()
    {
        var service = await Store.DefaultAsync();
        var check = new ModelCheck(Store.StoreName, () => new HttpRunner(service.Api), () => new PortRunner(service.Store));

        var failure = await check.CheckAsync(ModelCheck.Iterations, ModelCheck.Seed);

        if (failure is not null)
        {
            Assert.Fail(failure.ToString());
        }
    }

    [Theory]
    [MemberData(nameof(MalformedBodies.Cases), MemberType = typeof(MalformedBodies))]
    public async Task Malformed_body_gets_a_4xx_problem_and_changes_nothing(string name)
    {
        var malformed = MalformedBodies.Named(name);
        var service = await Store.DefaultAsync();
        var api = service.Api;
        var customer = Ids.NewCustomer();
        var order = await api.CreateOrderAsync(customer);
        var before = await SnapshotAsync(service, customer, order.Id);

        using var request = new HttpRequestMessage(HttpMethod.Post, malformed.Target switch
        {
            BodyTarget.Create => "/orders",
            BodyTarget.Batch => "/orders/batch",
            var step => $"/orders/{order.Id}/{step.ToString().ToLowerInvariant()}",
        });
        request.Content = new ByteArrayContent(malformed.Body(customer, order.Id));
        request.Content.Headers.ContentType = malformed.ContentType is null ? null : MediaTypeHeaderValue.Parse(malformed.ContentType);
        using var response = await api.SendAsync(request);

        var body = await response.Content.ReadAsStringAsync(Ct);
        var code = (int)response.StatusCode;
        code.ShouldBeInRange(400, 499, $"{name}: answered {code}: {body[..Math.Min(body.Length, 1000)]}");
        OrderApi.ShouldHaveMediaType(response, "application/problem+json", $"{name}: a {code} must be a problem");
        var problem = JsonNode.Parse(body).ShouldBeOfType<JsonObject>();
        problem["status"].ShouldNotBeNull($"{name}: a problem names its status").GetValue<int>().ShouldBe(code);

        (await SnapshotAsync(service, customer, order.Id)).ShouldBe(before, $"{name} changed the store");
    }

    /// <summary>
    /// What a malformed request could change, read through the port: the order (status, version, events) and
    /// how many orders the customer and the duplicate-key customer ("…x") have.
    /// </summary>
    private static async Task<string> SnapshotAsync(ServiceUnderTest service, string customer, Guid id)
    {
        var stored = await service.Store.GetAsync(id, Ct);
        return $"{stored?.Status} v{stored?.Version} events {stored?.Events.Count}; orders of the customer {await CountAsync(service.Store, customer)}, of {customer}x {await CountAsync(service.Store, customer + "x")}";
    }

    private static async Task<int> CountAsync(IOrderStore store, string customer)
    {
        var page = await store.ListByCustomerAsync(new CustomerOrdersQuery(customer, null, 1000), Ct);
        var count = 0;
        await foreach (var _ in page.Orders.WithCancellation(Ct))
        {
            count++;
        }

        return count;
    }
}
