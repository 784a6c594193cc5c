using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace OrderService.Testing;

/// <summary>What the load driver needs from a reply: the status code and the order's id, status and version.</summary>
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
}

/// <summary>
/// The workflow's calls as <see cref="ApiReply"/>, kept lean because the load driver shares the machine's cores with
/// the service: bodies are small literal JSON, and replies are scanned for three top-level fields instead of being
/// bound to a model.
/// </summary>
public sealed partial class OrderApi
{
    private const string WorkflowLines =
        """[{"sku":"SKU-RED-42","quantity":2,"unitPrice":19.99},{"sku":"SKU-BLUE-7","quantity":1,"unitPrice":5.50}]""";

    private static readonly MediaTypeHeaderValue JsonType = new("application/json");

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

            // Above the longest Resilience:TotalTimeoutSeconds the load driver gives the service, so that the
            // service's own answer (a 503 with Retry-After at worst) always arrives before the client gives up on it.
            Timeout = TimeSpan.FromSeconds(120),
        };

    public Task<ApiReply> CreateAsync(string customerId, string idempotencyKey, CancellationToken cancellationToken)
    {
        var body = $$"""{"customerId":"{{customerId}}","lines":{{WorkflowLines}}}""";
        return ReplyAsync(HttpMethod.Post, "orders", body, null, idempotencyKey, cancellationToken);
    }

    public Task<ApiReply> PayAsync(
        Guid id, int version, string paymentReference, CancellationToken cancellationToken) =>
        ReplyAsync(HttpMethod.Post, $"orders/{id}/pay",
            $$"""{"paymentReference":"{{paymentReference}}"}""", version, null, cancellationToken);

    public Task<ApiReply> ShipAsync(Guid id, int version, string trackingNumber, CancellationToken cancellationToken) =>
        ReplyAsync(HttpMethod.Post, $"orders/{id}/ship",
            $$"""{"carrier":"LoadPost","trackingNumber":"{{trackingNumber}}"}""", version, null, cancellationToken);

    public Task<ApiReply> CompleteAsync(Guid id, int version, CancellationToken cancellationToken) =>
        ReplyAsync(HttpMethod.Post, $"orders/{id}/complete", null, version, null, cancellationToken);

    public Task<ApiReply> GetAsync(Guid id, CancellationToken cancellationToken) =>
        ReplyAsync(HttpMethod.Get, $"orders/{id}", null, null, null, cancellationToken);

    /// <summary>Whether /health/ready answers 200; no answer (not listening yet, timed out) is not ready.</summary>
    public async Task<bool> IsReadyAsync(CancellationToken cancellationToken)
    {
        try
        {
            using var response = await Http.GetAsync("health/ready", cancellationToken).ConfigureAwait(false);
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

    private async Task<ApiReply> ReplyAsync(
        HttpMethod method, string path, string? body, int? ifMatch, string? idempotencyKey,
        CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(method, path);
        if (body is not null)
        {
            request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(body))
            {
                Headers = { ContentType = JsonType },
            };
        }

        var tag = ifMatch is { } version ? string.Create(CultureInfo.InvariantCulture, $"\"{version}\"") : null;
        AddHeaders(request, tag, idempotencyKey);
        using var response = await Http.SendAsync(request, HttpCompletionOption.ResponseContentRead, cancellationToken)
            .ConfigureAwait(false);
        var status = (int)response.StatusCode;
        var retryAfter = response.Headers.RetryAfter?.Delta;
        var bytes = await response.Content.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false);
        if (!response.IsSuccessStatusCode)
        {
            // The problem's text (title/detail) goes into the report's error samples.
            var problem = Encoding.UTF8.GetString(bytes);
            var excerpt = problem.Length > 300 ? problem[..300] : problem;
            return new ApiReply(status, Guid.Empty, null, 0, retryAfter, excerpt, bytes.Length);
        }

        var (id, orderStatus, orderVersion) = ScanOrder(bytes);
        return new ApiReply(status, id, orderStatus, orderVersion, retryAfter, SizeBytes: bytes.Length);
    }

    /// <summary>Reads the order's top-level id, status and version, skipping lines and events.</summary>
    public static (Guid Id, string? Status, int Version) ScanOrder(ReadOnlySpan<byte> json)
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

            if (reader.ValueTextEquals("id"u8))
            {
                reader.Read();
                id = reader.GetGuid();
            }
            else if (reader.ValueTextEquals("status"u8))
            {
                reader.Read();
                status = reader.GetString();
            }
            else if (reader.ValueTextEquals("version"u8))
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
