using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>The client side of the contract in ../shared/API.md, with the assertions every test repeats.</summary>
public sealed partial class OrderApi(HttpClient http)
{
    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    public HttpClient Http { get; } = http;

    /// <summary>Polls /health/ready until it is green (the store back, the circuit closed), or fails after <paramref name="bound"/>.</summary>
    public async Task WaitUntilReadyAsync(TimeSpan bound, string because)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            using var ready = await Http.GetAsync("/health/ready", TestContext.Current.CancellationToken);
            if (ready.StatusCode == HttpStatusCode.OK)
            {
                return;
            }

            clock.Elapsed.ShouldBeLessThan(bound, because);
            await Task.Delay(250, TestContext.Current.CancellationToken);
        }
    }

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public Task<HttpResponseMessage> GetAsync(string path) => Http.GetAsync(path, Ct);

    /// <summary>POSTs a JSON body (an object, a JsonNode, or raw JSON text when <paramref name="body"/> is a string).</summary>
    public async Task<HttpResponseMessage> PostAsync(string path, object? body, string? idempotencyKey = null, string? ifMatch = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path);
        request.Content = body switch
        {
            null => null,
            string raw => new StringContent(raw, Encoding.UTF8, "application/json"),
            _ => JsonContent.Create(body, body.GetType(), options: Json),
        };
        if (idempotencyKey is not null)
        {
            request.Headers.TryAddWithoutValidation("Idempotency-Key", idempotencyKey);
        }

        if (ifMatch is not null)
        {
            request.Headers.TryAddWithoutValidation("If-Match", ifMatch);
        }

        return await SendAsync(request);
    }

    public Task<HttpResponseMessage> SendAsync(HttpRequestMessage request) => Http.SendAsync(request, Ct);

    /// <summary>How long a client keeps retrying a 503 before it treats it as an outage (docs/api.md).</summary>
    public static readonly TimeSpan RetryDeadline = TimeSpan.FromSeconds(60);

    /// <summary>
    /// What a client does with a 503: waits Retry-After and sends the same request again (<paramref name="send"/>
    /// builds a fresh one, with the same body, Idempotency-Key and If-Match), until the first answer that is not a 503,
    /// or fails once <see cref="RetryDeadline"/> has passed.
    /// </summary>
    public static async Task<HttpResponseMessage> RetryUnavailableAsync(Func<Task<HttpResponseMessage>> send)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            var response = await send();
            if (response.StatusCode != HttpStatusCode.ServiceUnavailable)
            {
                return response;
            }

            var retryAfter = response.Headers.RetryAfter;
            var wait = retryAfter?.Delta ?? retryAfter?.Date - DateTimeOffset.UtcNow ?? TimeSpan.FromSeconds(1);
            if (clock.Elapsed + wait > RetryDeadline)
            {
                var request = response.RequestMessage;
                throw new ShouldAssertException(
                    $"{request?.Method} {request?.RequestUri?.PathAndQuery} still answered 503 after " +
                    $"{clock.Elapsed.TotalSeconds:F0} s of retries (deadline {RetryDeadline.TotalSeconds} s): " +
                    await response.Content.ReadAsStringAsync(Ct));
            }

            response.Dispose();
            await Task.Delay(wait < TimeSpan.Zero ? TimeSpan.Zero : wait, Ct);
        }
    }

    public static object Body(string customerId, params OrderLineDto[] lines) => new { customerId, lines };

    public static OrderLineDto[] OneLine => [new("SKU-1", 2, 19.99m)];

    public Task<HttpResponseMessage> CreateAsync(string customerId, OrderLineDto[]? lines = null, string? idempotencyKey = null) =>
        PostAsync("/orders", Body(customerId, lines ?? OneLine), idempotencyKey);

    /// <summary>Creates an order and asserts the 201.</summary>
    public async Task<OrderDto> CreateOrderAsync(string customerId, OrderLineDto[]? lines = null)
    {
        using var response = await CreateAsync(customerId, lines);
        return await ReadOrderAsync(response, HttpStatusCode.Created);
    }

    public Task<HttpResponseMessage> TransitionAsync(Guid id, string action, object? body = null, string? ifMatch = null, string? idempotencyKey = null) =>
        PostAsync($"/orders/{id}/{action}", body ?? new { }, idempotencyKey, ifMatch);

    /// <summary>Runs a transition and asserts the 200.</summary>
    public async Task<OrderDto> TransitionOkAsync(Guid id, string action, object? body = null, string? ifMatch = null)
    {
        using var response = await TransitionAsync(id, action, body, ifMatch);
        return await ReadOrderAsync(response, HttpStatusCode.OK);
    }

    public async Task<OrderDto> GetOrderAsync(Guid id)
    {
        using var response = await GetAsync($"/orders/{id}");
        return await ReadOrderAsync(response, HttpStatusCode.OK);
    }

    public async Task<List<OrderDto>> BatchAsync(IEnumerable<Guid> ids)
    {
        using var response = await PostAsync("/orders/batch", new { ids = ids.ToArray() });
        return await ReadListAsync(response);
    }

    public async Task<List<OrderDto>> ListAsync(string customerId, string query = "")
    {
        using var response = await GetAsync($"/customers/{customerId}/orders{query}");
        return await ReadListAsync(response);
    }

    /// <summary>
    /// One page of a listing: its orders and the target of its Link rel="next" (null when there is none). A 503 page is
    /// asked for again, as a client would (<see cref="RetryUnavailableAsync"/>).
    /// </summary>
    public async Task<(List<OrderDto> Orders, string? Next)> ListPageAsync(string pathAndQuery)
    {
        using var response = await RetryUnavailableAsync(() => GetAsync(pathAndQuery));
        var orders = await ReadListAsync(response);
        if (!response.Headers.TryGetValues("Link", out var links))
        {
            return (orders, null);
        }

        var link = links.ShouldHaveSingleItem();
        var next = NextLink().Match(link);
        next.Success.ShouldBeTrue($"Link must be <uri>; rel=\"next\", was {link}");
        return (orders, next.Groups["uri"].Value);
    }

    /// <summary>Every page of a listing, following Link rel="next" from <paramref name="firstPage"/> until a page has none.</summary>
    public async Task<List<List<OrderDto>>> WalkAsync(string firstPage, Func<int, Task>? afterPage = null)
    {
        var pages = new List<List<OrderDto>>();
        for (string? next = firstPage; next is not null;)
        {
            (var orders, next) = await ListPageAsync(next);
            pages.Add(orders);
            pages.Count.ShouldBeLessThan(10_000, "the walk must end");
            if (afterPage is not null)
            {
                await afterPage(pages.Count);
            }
        }

        return pages;
    }

    [System.Text.RegularExpressions.GeneratedRegex("^<(?<uri>[^>]+)>; rel=\"next\"$")]
    private static partial System.Text.RegularExpressions.Regex NextLink();

    public static async Task<OrderDto> ReadOrderAsync(HttpResponseMessage response, HttpStatusCode expected)
    {
        await ShouldHaveStatusAsync(response, expected);
        ShouldHaveMediaType(response, "application/json");
        var order = await response.Content.ReadFromJsonAsync<OrderDto>(Json, Ct);
        return order.ShouldNotBeNull();
    }

    public static async Task<List<OrderDto>> ReadListAsync(HttpResponseMessage response)
    {
        await ShouldHaveStatusAsync(response, HttpStatusCode.OK);
        ShouldHaveMediaType(response, "application/json");
        var list = await response.Content.ReadFromJsonAsync<List<OrderDto>>(Json, Ct);
        return list.ShouldNotBeNull();
    }

    /// <summary>Asserts an RFC 7807 answer with the given status and returns its JSON.</summary>
    public static async Task<JsonObject> ReadProblemAsync(HttpResponseMessage response, HttpStatusCode expected)
    {
        await ShouldHaveStatusAsync(response, expected);
        ShouldHaveMediaType(response, "application/problem+json", $"a {(int)expected} must be ProblemDetails");
        var problem = JsonNode.Parse(await response.Content.ReadAsStringAsync(Ct)) as JsonObject;
        problem.ShouldNotBeNull("the problem body must be a JSON object");
        problem["status"].ShouldNotBeNull("a problem names its status").GetValue<int>().ShouldBe((int)expected);
        return problem;
    }

    /// <summary>A 400 whose <c>errors</c> map names <paramref name="field"/> (a key containing it, case-insensitively).</summary>
    public static async Task<JsonObject> ReadValidationProblemAsync(HttpResponseMessage response, string field)
    {
        var problem = await ReadProblemAsync(response, HttpStatusCode.BadRequest);
        var errors = problem["errors"] as JsonObject;
        errors.ShouldNotBeNull($"a validation problem must carry field errors; got {problem.ToJsonString()}");
        errors.Select(e => e.Key).ShouldContain(key => key.Contains(field, StringComparison.OrdinalIgnoreCase),
            $"the errors must name '{field}'; got {errors.ToJsonString()}");
        return problem;
    }

    public static void ShouldHaveMediaType(HttpResponseMessage response, string mediaType, string? because = null) =>
        response.Content.Headers.ContentType.ShouldNotBeNull($"no Content-Type; expected {mediaType}").MediaType
            .ShouldBe(mediaType, because);

    public static async Task ShouldHaveStatusAsync(HttpResponseMessage response, HttpStatusCode expected)
    {
        if (response.StatusCode != expected)
        {
            var body = response.Content is null ? "" : await response.Content.ReadAsStringAsync(Ct);
            throw new ShouldAssertException(
                $"{response.RequestMessage?.Method} {response.RequestMessage?.RequestUri?.PathAndQuery} should answer {(int)expected} {expected} but answered {(int)response.StatusCode} {response.StatusCode}: {body[..Math.Min(body.Length, 2000)]}");
        }
    }
}

public sealed record OrderLineDto(string Sku, int Quantity, decimal UnitPrice);

public sealed record OrderEventDataDto(string? PaymentReference, string? Carrier, string? TrackingNumber, string? Reason, decimal? Total);

public sealed record OrderEventDto(int Sequence, string Type, DateTimeOffset At, OrderEventDataDto? Data);

public sealed record OrderDto(
    Guid Id,
    string CustomerId,
    string Status,
    List<OrderLineDto> Lines,
    decimal Total,
    int Version,
    DateTimeOffset CreatedAt,
    DateTimeOffset UpdatedAt,
    List<OrderEventDto> Events);

/// <summary>Fresh identifiers, so tests sharing one database never see each other's rows.</summary>
public static class Ids
{
    public static string NewCustomer() => "c-" + Guid.NewGuid().ToString("N")[..20];

    public static string NewKey() => "key-" + Guid.NewGuid().ToString("N");
}
