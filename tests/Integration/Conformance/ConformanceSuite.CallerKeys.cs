using System.Net;
using System.Net.Http.Headers;
using OrderService.Authorization;
using OrderService.Integration.Tests.Authorization;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// With authorization on, an Idempotency-Key is its caller's own (docs/api.md): the same key from another customer, or
// from an operator, is a new request, answered as if the key were new.
public abstract partial class ConformanceSuite<TStore>
{
    [Fact]
    public async Task Another_callers_Idempotency_Key_is_a_new_request_and_tells_nothing_of_the_first()
    {
        var service = await Store.AuthorizedAsync();

        // The longest customer id and key: the stored key must hold both on every engine.
        var alice = ("a" + Guid.NewGuid().ToString("N")).PadRight(64, 'a');
        var bob = Ids.NewCustomer();
        var key = "k" + Guid.NewGuid().ToString("N") + new string('~', 95);
        var customerScopes = $"{OrderScopes.Read} {OrderScopes.Write}";
        var asAlice = CallerApi(service, TestTokens.Create(customerScopes, alice));
        var asBob = CallerApi(service, TestTokens.Create(customerScopes, bob));
        var asOperator = CallerApi(service, TestTokens.Operator());

        var aliceOrder = await KeyedCreateAsync(asAlice, alice, key);
        var bobOrder = await KeyedCreateAsync(asBob, bob, key);
        bobOrder.Id.ShouldNotBe(aliceOrder.Id, "Bob's create under Alice's key makes Bob's own order");
        var operatorOrder = await KeyedCreateAsync(asOperator, bob, key);
        operatorOrder.Id.ShouldNotBe(bobOrder.Id, "an operator's key is not a customer's");

        // Within one caller the key still names one request: a retry replays, another body is 422.
        using (var retry = await Send(() => asAlice.CreateAsync(alice, idempotencyKey: key)))
        {
            (await OrderApi.ReadOrderAsync(retry, HttpStatusCode.Created)).ShouldBeEquivalentTo(aliceOrder);
            retry.Headers.GetValues("Idempotent-Replayed").ShouldBe(["true"]);
        }

        using (var other = await Send(() => asAlice.CreateAsync(alice, [new("OTHER", 1, 1m)], key)))
        {
            await OrderApi.ReadProblemAsync(other, HttpStatusCode.UnprocessableEntity);
        }

        // Bob pays with a key, then Alice pays her order with it: where a key spans orders, one namespace makes hers
        // 422.
        var payKey = Ids.NewKey();
        var bobPaid = await KeyedPayAsync(asBob, bobOrder, payKey);
        var alicePaid = await KeyedPayAsync(asAlice, aliceOrder, payKey);
        (await asBob.GetOrderAsync(bobOrder.Id)).ShouldBeEquivalentTo(bobPaid);
        (await asAlice.GetOrderAsync(aliceOrder.Id)).ShouldBeEquivalentTo(alicePaid);
        (await asAlice.ListAsync(alice)).Select(o => o.Id).ShouldBe([aliceOrder.Id]);
        (await asBob.ListAsync(bob)).Select(o => o.Id).ShouldBe([operatorOrder.Id, bobOrder.Id], ignoreOrder: true);
    }

    private static OrderApi CallerApi(ServiceUnderTest service, string token)
    {
        var client = service.Factory.CreateClient();
        client.Timeout = TimeSpan.FromSeconds(60);
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return new OrderApi(client, Ct);
    }

    /// <summary>As a client sends a keyed request: again after a 503, with the same key.</summary>
    private static Task<HttpResponseMessage> Send(Func<Task<HttpResponseMessage>> send) =>
        OrderApi.RetryUnavailableAsync(send, Ct);

    private static async Task<OrderDto> KeyedCreateAsync(OrderApi api, string customer, string key)
    {
        using var response = await Send(() => api.CreateAsync(customer, idempotencyKey: key));
        var order = await OrderApi.ReadOrderAsync(response, HttpStatusCode.Created);
        order.CustomerId.ShouldBe(customer);
        return order;
    }

    private static async Task<OrderDto> KeyedPayAsync(OrderApi api, OrderDto order, string key)
    {
        var body = new { paymentReference = order.CustomerId };
        using var response = await Send(() => api.TransitionAsync(order.Id, "pay", body, idempotencyKey: key));
        var paid = await OrderApi.ReadOrderAsync(response, HttpStatusCode.OK);
        (paid.Status, paid.Version).ShouldBe(("Paid", 2));
        return paid;
    }
}
