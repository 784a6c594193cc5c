using System.Net;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// The shape of the contract: resource fields, headers, documents, health.
public abstract partial class ConformanceSuite<TStore>
{
    private static readonly Regex UtcMicroseconds = new(@"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$", RegexOptions.CultureInvariant);

    [Fact]
    public async Task Create_answers_201_with_a_Location_that_serves_the_same_order()
    {
        using var response = await Api.CreateAsync(Ids.NewCustomer());
        var created = await OrderApi.ReadOrderAsync(response, HttpStatusCode.Created);

        var location = response.Headers.Location.ShouldNotBeNull("201 must carry a Location header");
        location.OriginalString.TrimEnd('/').ShouldEndWith($"/orders/{created.Id}", Case.Insensitive);
        using var fetched = await Api.GetAsync(location.OriginalString);
        (await OrderApi.ReadOrderAsync(fetched, HttpStatusCode.OK)).ShouldBeEquivalentTo(created);
    }

    [Fact]
    public async Task Order_ids_are_version_7_uuids_in_canonical_form()
    {
        using var response = await Api.CreateAsync(Ids.NewCustomer());
        var json = JsonNode.Parse(await response.Content.ReadAsStringAsync(Ct))!;
        var id = json["id"]!.GetValue<string>();

        id.ShouldMatch("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    }

    [Fact]
    public async Task Timestamps_are_UTC_ISO_8601_with_Z_and_at_most_microseconds()
    {
        var created = await Api.CreateOrderAsync(Ids.NewCustomer());
        await Api.TransitionOkAsync(created.Id, "pay");
        using var response = await Api.GetAsync($"/orders/{created.Id}");
        var json = JsonNode.Parse(await response.Content.ReadAsStringAsync(Ct))!;

        var stamps = new[] { json["createdAt"], json["updatedAt"] }
            .Concat(json["events"]!.AsArray().Select(e => e!["at"]))
            .Select(n => n!.GetValue<string>())
            .ToList();
        stamps.Count.ShouldBe(4);
        stamps.ShouldAllBe(s => UtcMicroseconds.IsMatch(s));
    }

    [Fact]
    public async Task Resource_json_uses_the_contract_field_names_and_status_strings()
    {
        var created = await Api.CreateOrderAsync(Ids.NewCustomer());
        using var response = await Api.GetAsync($"/orders/{created.Id}");
        var json = JsonNode.Parse(await response.Content.ReadAsStringAsync(Ct))!.AsObject();

        json.Select(p => p.Key).ShouldBe(["id", "customerId", "status", "lines", "total", "version", "createdAt", "updatedAt", "events"], ignoreOrder: true);
        json["status"]!.GetValue<string>().ShouldBe("Created");
        json["lines"]![0]!.AsObject().Select(p => p.Key).ShouldBe(["sku", "quantity", "unitPrice"], ignoreOrder: true);
        json["events"]![0]!.AsObject().Select(p => p.Key).ShouldBe(["sequence", "type", "at", "data"], ignoreOrder: true);
    }

    [Fact]
    public async Task Money_keeps_two_decimals_exactly()
    {
        var created = await Api.CreateOrderAsync(Ids.NewCustomer(), [new("A", 3, 0.1m), new("B", 7, 333333.33m), new("C", 1000, 0.01m)]);

        created.Total.ShouldBe(0.3m + 2333333.31m + 10m);
        (await Api.GetOrderAsync(created.Id)).Lines.Select(l => l.UnitPrice).ShouldBe([0.1m, 333333.33m, 0.01m]);
    }

    // A free order: zero written with two decimals (0.00, precision equal to scale) is a value some drivers have
    // refused as a parameter, and the total is sent as one.
    [Fact]
    public async Task A_free_order_is_stored_with_total_zero_and_walks_the_workflow()
    {
        var created = await Api.CreateOrderAsync(Ids.NewCustomer(), [new("FREE-1", 2, 0.00m), new("FREE-2", 1, 0m)]);

        created.Total.ShouldBe(0m);
        var paid = await Api.TransitionOkAsync(created.Id, "pay", new { paymentReference = "FREE" });
        paid.Total.ShouldBe(0m);
        var read = await Api.GetOrderAsync(created.Id);
        read.Lines.Select(l => l.UnitPrice).ShouldBe([0m, 0m]);
        read.Status.ShouldBe("Paid");
    }

    [Fact]
    public async Task Customer_listing_defaults_to_100_and_accepts_limit_1000()
    {
        var customer = Ids.NewCustomer();
        await Task.WhenAll(Enumerable.Range(0, 101).Select(_ => Api.CreateOrderAsync(customer)));

        var defaulted = await Api.ListAsync(customer);
        defaulted.Count.ShouldBe(100);
        defaulted.Select(o => o.CreatedAt).ShouldBeInOrder(SortDirection.Descending);
        (await Api.ListAsync(customer, "?limit=1000")).Count.ShouldBe(101);
    }

    [Fact]
    public async Task Batch_accepts_the_most_ids_allowed()
    {
        var existing = await Api.CreateOrderAsync(Ids.NewCustomer());
        var ids = Enumerable.Range(0, RequestLimits.MaxBatchIds - 1).Select(_ => Guid.CreateVersion7())
            .Append(existing.Id).ToArray();

        (await Api.BatchAsync(ids)).Select(o => o.Id).ShouldBe([existing.Id]);
    }

    [Fact]
    public async Task Health_live_and_ready_answer_200_when_the_store_is_up()
    {
        using var live = await Api.GetAsync("/health/live");
        await OrderApi.ShouldHaveStatusAsync(live, HttpStatusCode.OK);
        using var ready = await Api.GetAsync("/health/ready");
        await OrderApi.ShouldHaveStatusAsync(ready, HttpStatusCode.OK);
    }

    [Fact]
    public async Task OpenApi_document_describes_every_endpoint()
    {
        using var response = await Api.GetAsync("/openapi/v1.json");
        await OrderApi.ShouldHaveStatusAsync(response, HttpStatusCode.OK);
        var document = JsonNode.Parse(await response.Content.ReadAsStringAsync(Ct))!;

        document["openapi"]!.GetValue<string>().ShouldStartWith("3.");
        var paths = document["paths"]!.AsObject();
        var expected = new (string Path, string Method)[]
        {
            ("/orders", "post"), ("/orders/{id}", "get"), ("/orders/{id}/pay", "post"), ("/orders/{id}/ship", "post"),
            ("/orders/{id}/complete", "post"), ("/orders/{id}/cancel", "post"), ("/orders/batch", "post"),
            ("/customers/{customerId}/orders", "get"), ("/health/live", "get"), ("/health/ready", "get"),
        };
        foreach (var (path, method) in expected)
        {
            paths[path]?[method].ShouldNotBeNull($"the OpenAPI document must describe {method.ToUpperInvariant()} {path}");
        }

        var create = paths["/orders"]!["post"]!;
        create["requestBody"].ShouldNotBeNull("POST /orders must describe its request body");
        create["responses"]!["201"].ShouldNotBeNull();
        create["responses"]!["400"].ShouldNotBeNull("POST /orders must describe its validation problem");
        paths["/orders/{id}/pay"]!["post"]!["responses"]!["409"].ShouldNotBeNull("pay must describe its conflict problem");
    }

    [Fact]
    public async Task Swagger_UI_is_served_at_swagger()
    {
        using var response = await Api.GetAsync("/swagger");
        await OrderApi.ShouldHaveStatusAsync(response, HttpStatusCode.OK); // the client follows a redirect to index.html
        OrderApi.ShouldHaveMediaType(response, "text/html");
        (await response.Content.ReadAsStringAsync(Ct)).ShouldContain("swagger", Case.Insensitive);
    }
}
