using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using NBomber.Contracts;
using OrderService.Load.Scenarios;

namespace OrderService.Load.Shootout;

/// <summary>What the harness needs from a reply: the status code and the order's id, status and version.</summary>
public readonly record struct ApiReply(
    int StatusCode,
    Guid OrderId,
    string? OrderStatus,
    int Version,
    TimeSpan? RetryAfter = null,
    string? Problem = null,
    long SizeBytes = 0)
{
    public bool IsSuccess => StatusCode is >= 200 and < 300;

    /// <summary>The reply as an NBomber step's response: ok for a 2xx, with its status code and size.</summary>
    public Response<object> AsStep() =>
        IsSuccess ? Steps.Ok(StatusCode, SizeBytes) : Steps.Fail(StatusCode, Problem, SizeBytes);
}

/// <summary>
/// The HTTP side of a workflow, kept lean because the client shares the machine's two cores with the
/// service: bodies are small literal JSON, and replies are scanned for three top-level fields
/// instead of being bound to a full model.
/// </summary>
public sealed class OrderApiClient(HttpClient http)
{
    private static readonly MediaTypeHeaderValue Json = new("application/json");
    private static readonly byte[] IdProperty = "id"u8.ToArray();
    private static readonly byte[] StatusProperty = "status"u8.ToArray();
    private static readonly byte[] VersionProperty = "version"u8.ToArray();

    /// <summary>One pooled connection per copy (and per reader), reused across the run.</summary>
    public static HttpClient CreateHttpClient(Uri baseAddress, int connections) =>
        new(new SocketsHttpHandler
        {
            MaxConnectionsPerServer = Math.Max(1, connections),
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(2),
            ConnectTimeout = TimeSpan.FromSeconds(5),
            AutomaticDecompression = DecompressionMethods.None,
            UseCookies = false,
        })
        {
            BaseAddress = baseAddress,

            // Above the longest Resilience:TotalTimeoutSeconds the harness gives the service (Babelfish: 90 s), so that the
            // service's own answer (a 503 with Retry-After at worst) always arrives before the client gives up on it.
            Timeout = TimeSpan.FromSeconds(120),
        };

    public Task<ApiReply> CreateAsync(string customerId, string idempotencyKey, CancellationToken cancellationToken)
    {
        var body = $$"""{"customerId":"{{customerId}}","lines":[{"sku":"SKU-RED-42","quantity":2,"unitPrice":19.99},{"sku":"SKU-BLUE-7","quantity":1,"unitPrice":5.50}]}""";
        return SendAsync(HttpMethod.Post, "orders", body, null, idempotencyKey, cancellationToken);
    }

    public Task<ApiReply> PayAsync(Guid id, int version, string paymentReference, CancellationToken cancellationToken) =>
        SendAsync(HttpMethod.Post, $"orders/{id}/pay", $$"""{"paymentReference":"{{paymentReference}}"}""", version, null, cancellationToken);

    public Task<ApiReply> ShipAsync(Guid id, int version, string trackingNumber, CancellationToken cancellationToken) =>
        SendAsync(HttpMethod.Post, $"orders/{id}/ship", $$"""{"carrier":"LoadPost","trackingNumber":"{{trackingNumber}}"}""", version, null, cancellationToken);

    public Task<ApiReply> CompleteAsync(Guid id, int version, CancellationToken cancellationToken) =>
        SendAsync(HttpMethod.Post, $"orders/{id}/complete", null, version, null, cancellationToken);

    public Task<ApiReply> GetAsync(Guid id, CancellationToken cancellationToken) =>
        SendAsync(HttpMethod.Get, $"orders/{id}", null, null, null, cancellationToken);

    public async Task<bool> IsReadyAsync(CancellationToken cancellationToken)
    {
        try
        {
            using var response = await http.GetAsync("health/ready", cancellationToken).ConfigureAwait(false);
            return response.IsSuccessStatusCode;
        }
        catch (HttpRequestException)
        {
            return false;
        }
        catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return false;
        }
    }

    private async Task<ApiReply> SendAsync(HttpMethod method, string path, string? body, int? ifMatch, string? idempotencyKey, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(method, path);
        if (body is not null)
        {
            request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(body)) { Headers = { ContentType = Json } };
        }

        if (ifMatch is { } version)
        {
            request.Headers.TryAddWithoutValidation("If-Match", string.Create(CultureInfo.InvariantCulture, $"\"{version}\""));
        }

        if (idempotencyKey is not null)
        {
            request.Headers.TryAddWithoutValidation("Idempotency-Key", idempotencyKey);
        }

        using var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead, cancellationToken).ConfigureAwait(false);
        var status = (int)response.StatusCode;
        var retryAfter = response.Headers.RetryAfter?.Delta;
        if (!response.IsSuccessStatusCode)
        {
            // The problem's text (title/detail) goes into the report's error samples.
            var content = await response.Content.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false);
            var problem = Encoding.UTF8.GetString(content);
            var excerpt = problem.Length > 300 ? problem[..300] : problem;
            return new ApiReply(status, Guid.Empty, null, 0, retryAfter, excerpt, content.Length);
        }

        var bytes = await response.Content.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false);
        var (id, orderStatus, orderVersion) = ScanOrder(bytes);
        return new ApiReply(status, id, orderStatus, orderVersion, retryAfter, SizeBytes: bytes.Length);
    }

    /// <summary>Reads the order's top-level id, status and version, skipping lines and events.</summary>
    internal static (Guid Id, string? Status, int Version) ScanOrder(ReadOnlySpan<byte> json)
    {
        var reader = new Utf8JsonReader(json);
        Guid id = Guid.Empty;
        string? status = null;
        var version = 0;
        while (reader.Read())
        {
            if (reader.TokenType != JsonTokenType.PropertyName || reader.CurrentDepth != 1)
            {
                continue;
            }

            if (reader.ValueTextEquals(IdProperty))
            {
                reader.Read();
                id = reader.GetGuid();
            }
            else if (reader.ValueTextEquals(StatusProperty))
            {
                reader.Read();
                status = reader.GetString();
            }
            else if (reader.ValueTextEquals(VersionProperty))
            {
                reader.Read();
                version = reader.GetInt32();
            }
            else
            {
                reader.Read();
                reader.Skip();
            }
        }

        return (id, status, version);
    }
}
