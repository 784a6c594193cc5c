using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace OrderService.Testing;

/// <summary>
/// The client side of docs/api.md for the tests and the load driver: the calls with their headers, the retry a client
/// makes after a 503, and checks that name the request when an answer is not the expected one.
/// <paramref name="cancellation"/> ends the calls that take no token of their own.
/// </summary>
public sealed partial class OrderApi(HttpClient http, CancellationToken cancellation = default)
{
    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    /// <summary>How long a client keeps retrying a 503 before it treats it as an outage (docs/api.md).</summary>
    public static readonly TimeSpan RetryDeadline = TimeSpan.FromSeconds(60);

    public HttpClient Http { get; } = http;

    public static OrderLineDto[] OneLine => [new("SKU-1", 2, 19.99m)];

    public static object Body(string customerId, params OrderLineDto[] lines) => new { customerId, lines };

    /// <summary>
    /// Polls /health/ready until it is green (the store back, the circuit closed), or fails after
    /// <paramref name="bound"/>.
    /// </summary>
    public async Task WaitUntilReadyAsync(TimeSpan bound, string because)
    {
        var clock = Stopwatch.StartNew();
        while (!await IsReadyAsync(cancellation))
        {
            if (clock.Elapsed >= bound)
            {
                throw new UnexpectedAnswerException(
                    $"/health/ready was not green within {bound.TotalSeconds} s: {because}");
            }

            await Task.Delay(250, cancellation);
        }
    }

    public Task<HttpResponseMessage> GetAsync(string path) => Http.GetAsync(path, cancellation);

    public Task<HttpResponseMessage> SendAsync(HttpRequestMessage request) => Http.SendAsync(request, cancellation);

    /// <summary>POSTs a JSON body: an object, a JsonNode, or raw JSON text when it is a string.</summary>
    public async Task<HttpResponseMessage> PostAsync(
        string path, object? body, string? idempotencyKey = null, string? ifMatch = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path);
        request.Content = body switch
        {
            null => null,
            string raw => new StringContent(raw, Encoding.UTF8, "application/json"),
            _ => JsonContent.Create(body, body.GetType(), options: Json),
        };
        AddHeaders(request, ifMatch, idempotencyKey);
        return await SendAsync(request);
    }

    public Task<HttpResponseMessage> CreateAsync(
        string customerId, OrderLineDto[]? lines = null, string? idempotencyKey = null) =>
        PostAsync("/orders", Body(customerId, lines ?? OneLine), idempotencyKey);

    /// <summary>Creates an order and checks the 201.</summary>
    public async Task<OrderDto> CreateOrderAsync(string customerId, OrderLineDto[]? lines = null)
    {
        using var response = await CreateAsync(customerId, lines);
        return await ReadOrderAsync(response, HttpStatusCode.Created);
    }

    /// <summary>pay, ship, complete or cancel; <paramref name="body"/> null sends <c>{}</c>.</summary>
    public Task<HttpResponseMessage> TransitionAsync(
        Guid id, string action, object? body = null, string? ifMatch = null, string? idempotencyKey = null) =>
        PostAsync($"/orders/{id}/{action}", body ?? new { }, idempotencyKey, ifMatch);

    /// <summary>Runs a transition and checks the 200.</summary>
    public async Task<OrderDto> TransitionOkAsync(Guid id, string action, object? body = null, string? ifMatch = null)
    {
        using var response = await TransitionAsync(id, action, body, ifMatch);
        return await ReadOrderAsync(response, HttpStatusCode.OK);
    }

    /// <summary>
    /// create, pay, ship, complete: each step after the create with If-Match, each answer checked.
    /// Returns the create's Location and the order as the complete step answered it.
    /// </summary>
    public async Task<(string Location, OrderDto Completed)> RunWorkflowAsync(string customerId)
    {
        using var created = await CreateAsync(customerId);
        var order = await ReadOrderAsync(created, HttpStatusCode.Created);
        order = await TransitionOkAsync(order.Id, "pay", new { paymentReference = $"p-{customerId}" }, "\"1\"");
        var shipment = new { carrier = "DHL", trackingNumber = $"TRK-{customerId}" };
        order = await TransitionOkAsync(order.Id, "ship", shipment, "\"2\"");
        order = await TransitionOkAsync(order.Id, "complete", ifMatch: "\"3\"");
        return (created.Headers.Location!.ToString(), order);
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

    /// <summary>The first page of a customer's orders (<c>GET /customers/{id}/orders</c>).</summary>
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
        using var response = await RetryUnavailableAsync(() => GetAsync(pathAndQuery), cancellation);
        var orders = await ReadListAsync(response);
        if (!response.Headers.TryGetValues("Link", out var links))
        {
            return (orders, null);
        }

        var link = links.Single();
        var next = NextLink().Match(link);
        return next.Success
            ? (orders, next.Groups["uri"].Value)
            : throw new UnexpectedAnswerException($"Link must be <uri>; rel=\"next\", was {link}");
    }

    /// <summary>
    /// Every page of a listing, following Link rel="next" from <paramref name="firstPage"/> until a page has none.
    /// </summary>
    public async Task<List<List<OrderDto>>> WalkAsync(string firstPage, Func<int, Task>? afterPage = null)
    {
        var pages = new List<List<OrderDto>>();
        for (string? next = firstPage; next is not null;)
        {
            (var orders, next) = await ListPageAsync(next);
            pages.Add(orders);
            if (pages.Count >= 10_000)
            {
                throw new UnexpectedAnswerException($"the walk from {firstPage} did not end");
            }

            if (afterPage is not null)
            {
                await afterPage(pages.Count);
            }
        }

        return pages;
    }

    /// <summary>
    /// What a client does with a 503: waits Retry-After and sends the same request again (<paramref name="send"/>
    /// builds a fresh one, with the same body, Idempotency-Key and If-Match), until the first answer that is not a 503,
    /// or fails once <see cref="RetryDeadline"/> has passed.
    /// </summary>
    public static async Task<HttpResponseMessage> RetryUnavailableAsync(
        Func<Task<HttpResponseMessage>> send, CancellationToken cancellationToken = default)
    {
        var clock = Stopwatch.StartNew();
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
                throw new UnexpectedAnswerException(
                    $"{request?.Method} {request?.RequestUri?.PathAndQuery} still answered 503 after " +
                    $"{clock.Elapsed.TotalSeconds:F0} s of retries (deadline {RetryDeadline.TotalSeconds} s): " +
                    await response.Content.ReadAsStringAsync(cancellationToken));
            }

            response.Dispose();
            await Task.Delay(wait < TimeSpan.Zero ? TimeSpan.Zero : wait, cancellationToken);
        }
    }

    private static void AddHeaders(HttpRequestMessage request, string? ifMatch, string? idempotencyKey)
    {
        if (ifMatch is not null)
        {
            request.Headers.TryAddWithoutValidation("If-Match", ifMatch);
        }

        if (idempotencyKey is not null)
        {
            request.Headers.TryAddWithoutValidation("Idempotency-Key", idempotencyKey);
        }
    }

    [GeneratedRegex("^<(?<uri>[^>]+)>; rel=\"next\"$")]
    private static partial Regex NextLink();
}
