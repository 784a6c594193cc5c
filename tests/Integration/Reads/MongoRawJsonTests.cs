using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using OrderService.Data;
using OrderService.Integration.Tests.Authorization;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Reads;

/// <summary>
/// Batches and customer listings written as API JSON straight from the stored BSON (Store:MongoDb:RawBsonToJson, on by
/// default) answer byte for byte what the Order path answers: two hosts on one database, one with the switch off, and
/// every order of a body compared with its GET (always the Order path). Orders in every status, with every kind of
/// event data and non-ASCII text; pages walked by their Link headers; a customer-scoped token; the standby decorator.
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoRawJsonTests : IAsyncLifetime
{
    private const string Customer = "raw-json-a";
    private const string OtherCustomer = "raw-json-b";

    private readonly List<OrderServiceFactory> _factories = [];
    private string? _database;
    private HttpClient _raw = null!;
    private HttpClient _orders = null!;
    private List<string> _ids = [];

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public async ValueTask InitializeAsync()
    {
        await MongoTestServer.SelectAsync();
        if (MongoTestServer.UnavailableReason is not null)
        {
            return;
        }

        _database = MongoTestServer.DatabaseUri("rawjson");
        _raw = Host();
        _orders = Host(("Store:MongoDb:RawBsonToJson", "false"));
        _ids = [.. await CreateOrdersAsync(Customer, 40), .. await CreateOrdersAsync(OtherCustomer, 5)];
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var factory in _factories)
        {
            await factory.DisposeAsync();
        }

        if (_database is not null)
        {
            await MongoTestServer.DropAsync([_database]);
        }
    }

    [Fact]
    public async Task A_batch_body_is_the_order_paths_bytes_and_each_order_its_get()
    {
        await MongoTestServer.RequireServerAsync();
        var asked = new { ids = _ids.Append(Guid.NewGuid().ToString()).Append(_ids[0]).ToArray() }; // an unknown id and a repeat

        var raw = await BodyAsync(_raw.PostAsJsonAsync("/orders/batch", asked, Ct));
        var viaOrders = await BodyAsync(_orders.PostAsJsonAsync("/orders/batch", asked, Ct));

        raw.Body.ShouldBe(viaOrders.Body);
        (await EachIsItsGetAsync(raw.Body)).ShouldBe(_ids.Count);
        _factories[0].Services.GetService<IOrderJsonReads>().ShouldNotBeNull("the default host writes from the BSON");
        _factories[1].Services.GetService<IOrderJsonReads>().ShouldBeNull("the switch brings the Order path back");
    }

    [Theory]
    [InlineData(null)]
    [InlineData("Paid")]
    [InlineData("Cancelled")]
    public async Task Every_page_of_a_listing_is_the_order_paths_bytes_with_the_same_link(string? status)
    {
        await MongoTestServer.RequireServerAsync();
        string? rawPage = $"/customers/{Customer}/orders?limit=7" + (status is null ? "" : "&status=" + status);
        var pages = 0;
        var orders = 0;
        while (rawPage is not null)
        {
            var raw = await BodyAsync(_raw.GetAsync(rawPage, Ct));
            var viaOrders = await BodyAsync(_orders.GetAsync(rawPage, Ct));

            raw.Body.ShouldBe(viaOrders.Body);
            raw.Link.ShouldBe(viaOrders.Link);
            orders += await EachIsItsGetAsync(raw.Body);
            pages++;
            rawPage = raw.Link is { } link ? link[1..link.IndexOf('>', StringComparison.Ordinal)] : null;
        }

        orders.ShouldBeGreaterThan(0);
        pages.ShouldBe((orders + 6) / 7);
        if (status is null)
        {
            orders.ShouldBe(40);
        }
    }

    [Fact]
    public async Task A_customer_scoped_batch_keeps_only_that_customers_orders_on_both_paths()
    {
        await MongoTestServer.RequireServerAsync();
        var asked = new { ids = _ids.ToArray() };
        var token = TestTokens.Create("orders:read orders:write", OtherCustomer);

        var raw = await BodyAsync(Send(_raw, token, asked));
        var viaOrders = await BodyAsync(Send(_orders, token, asked));

        raw.Body.ShouldBe(viaOrders.Body);
        using var body = JsonDocument.Parse(raw.Body);
        body.RootElement.EnumerateArray().Select(o => o.GetProperty("customerId").GetString()).ShouldBe(Enumerable.Repeat(OtherCustomer, 5));
    }

    [Fact]
    public async Task Reads_from_a_secondary_go_through_the_standby_decorator_as_json_with_the_same_bytes()
    {
        await MongoTestServer.RequireServerAsync();
        using var standby = Host(("Store:MongoDb:ReadPreference", "SecondaryPreferred"));
        var asked = new { ids = _ids.ToArray() };

        var raw = await BodyAsync(standby.PostAsJsonAsync("/orders/batch", asked, Ct));
        var viaOrders = await BodyAsync(_orders.PostAsJsonAsync("/orders/batch", asked, Ct));
        var listing = await BodyAsync(standby.GetAsync($"/customers/{Customer}/orders?limit=1000", Ct));

        raw.Body.ShouldBe(viaOrders.Body);
        listing.Body.ShouldBe((await BodyAsync(_orders.GetAsync($"/customers/{Customer}/orders?limit=1000", Ct))).Body);
    }

    /// <summary>Each order of a streamed body, as its bytes stand there, is what GET /orders/{id} answers for it.</summary>
    private async Task<int> EachIsItsGetAsync(string body)
    {
        using var document = JsonDocument.Parse(body);
        var count = 0;
        foreach (var order in document.RootElement.EnumerateArray())
        {
            var get = await BodyAsync(_orders.GetAsync("/orders/" + order.GetProperty("id").GetString(), Ct));
            order.GetRawText().ShouldBe(get.Body);
            count++;
        }

        return count;
    }

    private Task<HttpResponseMessage> Send(HttpClient client, string token, object body)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/orders/batch") { Content = JsonContent.Create(body) };
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return client.SendAsync(request, Ct);
    }

    private static async Task<(string Body, string? Link)> BodyAsync(Task<HttpResponseMessage> sending)
    {
        using var response = await sending;
        var body = await response.Content.ReadAsStringAsync(Ct);
        response.StatusCode.ShouldBe(HttpStatusCode.OK, body);
        return (body, response.Headers.TryGetValues("Link", out var link) ? link.Single() : null);
    }

    /// <summary>A host on the shared database; tokens are trusted (a request without one is an operator's).</summary>
    private HttpClient Host(params (string Key, string? Value)[] overrides)
    {
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = "MongoDb",
            ["Store:Layout"] = "Document",
            ["ConnectionStrings:Orders"] = _database,
        };
        foreach (var (key, value) in MongoEngine.FerretDbSettings.Select(s => (s.Key, s.Value)).Concat(TestTokens.Settings).Concat(overrides))
        {
            settings[key] = value;
        }

        var factory = new OrderServiceFactory(settings);
        _factories.Add(factory);
        var client = factory.CreateClient();
        client.Timeout = TimeSpan.FromSeconds(60);
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", TestTokens.Operator());
        return client;
    }

    /// <summary>
    /// <paramref name="count"/> orders of one customer through the API, in every status, with every kind of event data,
    /// several lines, non-ASCII and escaped text and large amounts.
    /// </summary>
    private async Task<List<string>> CreateOrdersAsync(string customer, int count)
    {
        var ids = new List<string>(count);
        for (var i = 0; i < count; i++)
        {
            var create = new
            {
                customerId = customer,
                lines = new object[]
                {
                    new { sku = $"SKU-{i}-Grüße-日本-🙂", quantity = 1 + i, unitPrice = 19.99m + i },
                    new { sku = "<b>\"q\" & 'a'</b>\\/\u2028", quantity = i % 3 == 0 ? 1_000 : 3, unitPrice = i % 3 == 0 ? 999_999.99m : 0.01m },
                },
            };
            using var created = await _raw.PostAsJsonAsync("/orders", create, Ct);
            created.StatusCode.ShouldBe(HttpStatusCode.Created);
            var id = (await created.Content.ReadFromJsonAsync<JsonElement>(Ct)).GetProperty("id").GetString()!;
            ids.Add(id);
            foreach (var (step, body) in Steps(i))
            {
                using var moved = await _raw.PostAsJsonAsync($"/orders/{id}/{step}", body, Ct);
                moved.StatusCode.ShouldBe(HttpStatusCode.OK, await moved.Content.ReadAsStringAsync(Ct));
            }
        }

        return ids;
    }

    /// <summary>Created, Paid, Shipped, Completed, Cancelled before and after payment, with and without a reason.</summary>
    private static IEnumerable<(string Step, object Body)> Steps(int i)
    {
        var pay = ("pay", (object)new { paymentReference = $"pay-{i}-€" });
        var ship = ("ship", (object)new { carrier = "DHL Paket", trackingNumber = $"TRK-{i}" });
        return (i % 6) switch
        {
            0 => [],
            1 => [pay],
            2 => [pay, ship],
            3 => [pay, ship, ("complete", new { })],
            4 => [("cancel", new { reason = $"Größe passt nicht 👟 </script> {i}" })],
            _ => [pay, ("cancel", new { })],
        };
    }
}
