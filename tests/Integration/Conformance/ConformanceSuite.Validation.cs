using System.Net;
using System.Text;
using Microsoft.AspNetCore.Http.Features;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// Every limit of the contract: a 4xx ProblemDetails naming the field, and nothing written.
public abstract partial class ConformanceSuite<TStore>
{
    [Theory]
    [MemberData(nameof(ValidationCases.CreateCases), MemberType = typeof(ValidationCases))]
    public async Task Create_with_an_invalid_field_gets_400_naming_it_and_writes_nothing(string invalid)
    {
        var (breakBody, field) = ValidationCases.Create[invalid];
        var customer = Ids.NewCustomer();
        var key = Ids.NewKey();
        var body = ValidationCases.ValidBody(customer);
        breakBody(body);

        using var response = await Api.PostAsync("/orders", body.ToJsonString(), idempotencyKey: key);

        await OrderApi.ReadValidationProblemAsync(response, field);
        await ShouldHaveWrittenNothingAsync(customer, key);
    }

    [Theory]
    [MemberData(nameof(ValidationCases.MalformedCases), MemberType = typeof(ValidationCases))]
    public async Task Create_with_a_malformed_body_gets_400_and_writes_nothing(string malformed)
    {
        var key = Ids.NewKey();
        using var response = await Api.PostAsync("/orders", ValidationCases.Malformed[malformed], idempotencyKey: key);

        await OrderApi.ReadProblemAsync(response, HttpStatusCode.BadRequest);
        await ShouldHaveWrittenNothingAsync(Ids.NewCustomer(), key);
    }

    [Theory]
    [MemberData(nameof(ValidationCases.KeyCases), MemberType = typeof(ValidationCases))]
    public async Task Create_with_an_invalid_Idempotency_Key_gets_400_and_writes_nothing(string invalid)
    {
        var customer = Ids.NewCustomer();

        // Straight into the test server: HttpClient drops a header whose value is empty before it is sent.
        var context = await Service.Factory.Server.SendAsync(c =>
        {
            c.Request.Method = "POST";
            c.Request.Path = "/orders";
            c.Request.ContentType = "application/json";
            c.Request.Headers["Idempotency-Key"] = ValidationCases.IdempotencyKeys[invalid];
            var body = Encoding.UTF8.GetBytes(ValidationCases.ValidBody(customer).ToJsonString());
            c.Request.ContentLength = body.Length;
            c.Request.Body = new MemoryStream(body);
            c.Features.Set<IHttpRequestBodyDetectionFeature>(new RequestHasBody());
        }, Ct);
        using var response = new HttpResponseMessage((HttpStatusCode)context.Response.StatusCode)
        {
            Content = new StreamContent(context.Response.Body),
        };
        response.Content.Headers.TryAddWithoutValidation("Content-Type", context.Response.ContentType);

        await OrderApi.ReadValidationProblemAsync(response, "Idempotency-Key");
        (await Api.ListAsync(customer)).ShouldBeEmpty();
    }

    [Theory]
    [MemberData(nameof(ValidationCases.KeyCases), MemberType = typeof(ValidationCases))]
    public async Task Transition_with_an_invalid_Idempotency_Key_gets_400_and_changes_nothing(string invalid)
    {
        var order = await Api.CreateOrderAsync(Ids.NewCustomer());

        // Straight into the test server, as for create: HttpClient drops an empty header.
        var context = await Service.Factory.Server.SendAsync(c =>
        {
            c.Request.Method = "POST";
            c.Request.Path = $"/orders/{order.Id}/pay";
            c.Request.ContentType = "application/json";
            c.Request.Headers["Idempotency-Key"] = ValidationCases.IdempotencyKeys[invalid];
            var body = "{}"u8.ToArray();
            c.Request.ContentLength = body.Length;
            c.Request.Body = new MemoryStream(body);
            c.Features.Set<IHttpRequestBodyDetectionFeature>(new RequestHasBody());
        }, Ct);
        using var response = new HttpResponseMessage((HttpStatusCode)context.Response.StatusCode)
        {
            Content = new StreamContent(context.Response.Body),
        };
        response.Content.Headers.TryAddWithoutValidation("Content-Type", context.Response.ContentType);

        await OrderApi.ReadValidationProblemAsync(response, "Idempotency-Key");
        (await Api.GetOrderAsync(order.Id)).ShouldBeEquivalentTo(order);
    }

    [Fact]
    public async Task Create_accepts_every_value_at_the_limits()
    {
        var customer = "Az09_-" + new string('x', 58);
        var lines = Enumerable.Range(0, 100)
            .Select(i => new OrderLineDto(i == 0 ? new string('S', 64) : $"~ !SKU/{i}", i % 2 == 0 ? 1 : 1000, i % 3 == 0 ? 0m : 1_000_000m))
            .ToArray();
        using var response = await Api.CreateAsync(customer, lines, idempotencyKey: "K" + new string('~', 63) + " " + new string('~', 63));

        var created = await OrderApi.ReadOrderAsync(response, HttpStatusCode.Created);
        created.Lines.Count.ShouldBe(100);
        created.CustomerId.ShouldBe(customer);
        (await Api.ListAsync(customer, "?limit=1000")).Count.ShouldBe(1);
    }

    [Theory]
    [MemberData(nameof(ValidationCases.TransitionCases), MemberType = typeof(ValidationCases))]
    public async Task Transition_with_an_invalid_field_gets_400_naming_it_and_changes_nothing(string invalid)
    {
        var (action, body, field) = ValidationCases.Transition[invalid];
        var order = await Api.CreateOrderAsync(Ids.NewCustomer());
        if (action == "ship")
        {
            order = await Api.TransitionOkAsync(order.Id, "pay");
        }

        using var response = await Api.PostAsync($"/orders/{order.Id}/{action}", body);

        await OrderApi.ReadValidationProblemAsync(response, field);
        (await Api.GetOrderAsync(order.Id)).ShouldBeEquivalentTo(order);
    }

    [Fact]
    public async Task Transition_fields_at_their_limits_are_accepted()
    {
        var order = await Api.CreateOrderAsync(Ids.NewCustomer());
        await Api.TransitionOkAsync(order.Id, "pay", new { paymentReference = new string('p', 128) });
        var shipped = await Api.TransitionOkAsync(order.Id, "ship", new { carrier = new string('c', 64), trackingNumber = "T" });
        shipped.Events[^1].Data!.Carrier!.Length.ShouldBe(64);

        // Printable is not ASCII: a surrogate pair is one character, kept as sent.
        var other = await Api.CreateOrderAsync(Ids.NewCustomer());
        var reason = new string('r', 497) + "\u00e9\ud83d\ude00";
        var cancelled = await Api.TransitionOkAsync(other.Id, "cancel", new { reason });
        cancelled.Events[^1].Data!.Reason.ShouldBe(reason);
        (await Api.GetOrderAsync(other.Id)).Events[^1].Data!.Reason.ShouldBe(reason);
    }

    [Theory]
    [MemberData(nameof(ValidationCases.TextCases), MemberType = typeof(ValidationCases))]
    public async Task A_text_field_with_an_unprintable_character_gets_400_naming_it_and_changes_nothing(
        string field, string character)
    {
        var (action, template) = ValidationCases.TextFields[field];
        var customer = Ids.NewCustomer();
        var text = $"A{ValidationCases.Unprintable[character]}B";
        var body = template.Replace("CUSTOMER", customer).Replace("TEXT", text);
        if (action == "create")
        {
            var key = Ids.NewKey();
            using var create = await Api.PostAsync("/orders", body, idempotencyKey: key);

            await OrderApi.ReadValidationProblemAsync(create, field);
            await ShouldHaveWrittenNothingAsync(customer, key);
            return;
        }

        var order = await Api.CreateOrderAsync(customer);
        if (action == "ship")
        {
            order = await Api.TransitionOkAsync(order.Id, "pay");
        }

        using var response = await Api.PostAsync($"/orders/{order.Id}/{action}", body, idempotencyKey: Ids.NewKey());

        await OrderApi.ReadValidationProblemAsync(response, field);
        (await Api.GetOrderAsync(order.Id)).ShouldBeEquivalentTo(order);
    }

    [Theory]
    [InlineData("abc")]
    [InlineData("\"x1\"")]
    public async Task A_malformed_If_Match_gets_400_and_changes_nothing(string ifMatch)
    {
        var order = await Api.CreateOrderAsync(Ids.NewCustomer());
        using var response = await Api.TransitionAsync(order.Id, "pay", ifMatch: ifMatch);

        await OrderApi.ReadProblemAsync(response, HttpStatusCode.BadRequest);
        (await Api.GetOrderAsync(order.Id)).ShouldBeEquivalentTo(order);
    }

    [Fact]
    public async Task A_malformed_transition_body_gets_400_and_changes_nothing()
    {
        var order = await Api.CreateOrderAsync(Ids.NewCustomer());
        using var response = await Api.PostAsync($"/orders/{order.Id}/pay", "{\"paymentReference\":");

        await OrderApi.ReadProblemAsync(response, HttpStatusCode.BadRequest);
        (await Api.GetOrderAsync(order.Id)).ShouldBeEquivalentTo(order);
    }

    [Theory]
    [InlineData("GET", "")]
    [InlineData("POST", "/pay")]
    [InlineData("POST", "/ship")]
    [InlineData("POST", "/complete")]
    [InlineData("POST", "/cancel")]
    public async Task An_order_id_that_is_not_a_UUID_gets_a_4xx_problem(string method, string suffix)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), $"/orders/not-a-uuid{suffix}");
        if (method == "POST")
        {
            request.Content = new StringContent(suffix == "/ship" ? "{\"carrier\":\"C\",\"trackingNumber\":\"T\"}" : "{}", Encoding.UTF8, "application/json");
        }

        using var response = await Api.SendAsync(request);

        // GET, pay and ship list 400 in the contract; complete and cancel list only 404 and 409.
        var expected = suffix is "" or "/pay" or "/ship" ? HttpStatusCode.BadRequest : response.StatusCode;
        response.StatusCode.ShouldBeOneOf(HttpStatusCode.BadRequest, HttpStatusCode.NotFound);
        await OrderApi.ReadProblemAsync(response, expected);
    }

    [Theory]
    [MemberData(nameof(ValidationCases.BatchCases), MemberType = typeof(ValidationCases))]
    public async Task Batch_with_invalid_ids_gets_400_naming_ids(string invalid)
    {
        var (body, field) = ValidationCases.Batch[invalid];
        using var response = await Api.PostAsync("/orders/batch", body());

        await OrderApi.ReadValidationProblemAsync(response, field);
    }

    [Theory]
    [MemberData(nameof(ValidationCases.ListingCases), MemberType = typeof(ValidationCases))]
    public async Task Customer_listing_with_an_invalid_parameter_gets_400_naming_it(string invalid)
    {
        var (path, field) = ValidationCases.Listing[invalid];
        using var response = await Api.GetAsync(path(Ids.NewCustomer()));

        await OrderApi.ReadValidationProblemAsync(response, field);
    }

    [Theory]
    [InlineData("text/plain")]
    [InlineData("application/xml")]
    [InlineData("application/x-www-form-urlencoded")]
    [InlineData(null)]
    public async Task A_body_that_is_not_application_json_gets_415_and_writes_nothing(string? contentType)
    {
        var customer = Ids.NewCustomer();
        var key = Ids.NewKey();
        var order = await Api.CreateOrderAsync(Ids.NewCustomer());

        using var create = await SendRawAsync("/orders", ValidationCases.ValidBody(customer).ToJsonString(), contentType, key);
        await OrderApi.ReadProblemAsync(create, HttpStatusCode.UnsupportedMediaType);
        using var pay = await SendRawAsync($"/orders/{order.Id}/pay", "{}", contentType, null);
        await OrderApi.ReadProblemAsync(pay, HttpStatusCode.UnsupportedMediaType);

        await ShouldHaveWrittenNothingAsync(customer, key);
        (await Api.GetOrderAsync(order.Id)).ShouldBeEquivalentTo(order);
    }

    private async Task<HttpResponseMessage> SendRawAsync(string path, string body, string? contentType, string? key)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = new ByteArrayContent(Encoding.UTF8.GetBytes(body)) };
        if (contentType is not null)
        {
            request.Content.Headers.TryAddWithoutValidation("Content-Type", contentType);
        }

        if (key is not null)
        {
            request.Headers.TryAddWithoutValidation("Idempotency-Key", key);
        }

        return await Api.SendAsync(request);
    }

    /// <summary>
    /// Proves a rejected create left no trace: the customer has no order, and the key was not consumed
    /// (a valid request with it now creates a fresh order for a fresh customer instead of replaying).
    /// </summary>
    private async Task ShouldHaveWrittenNothingAsync(string customer, string key)
    {
        (await Api.ListAsync(customer)).ShouldBeEmpty("a rejected request must not write an order");
        var probeCustomer = Ids.NewCustomer();
        using var probe = await Api.CreateAsync(probeCustomer, idempotencyKey: key);
        var created = await OrderApi.ReadOrderAsync(probe, HttpStatusCode.Created);
        created.CustomerId.ShouldBe(probeCustomer, "a rejected request must not record its Idempotency-Key");
    }

    private sealed class RequestHasBody : IHttpRequestBodyDetectionFeature
    {
        public bool CanHaveBody => true;
    }
}
