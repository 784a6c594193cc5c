using System.Buffers;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.AspNetCore.Http.Json;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Http.Timeouts;
using Microsoft.Extensions.Options;
using OrderService.Authorization;
using OrderService.Data.Orders;

namespace OrderService.Apis;

/// <summary>
/// 200 with a JSON array of orders written as rows arrive; created only after the first row (or the end), so a
/// store fault before it is still a clean 503.
/// </summary>
public sealed class OrderStream : IResult, IEndpointMetadataProvider, IStatusCodeHttpResult, ICustomerScopedResult
{
    public const string TimeoutPolicy = "stream";

    private const int FlushEvery = 32;
    private const int BufferSize = 16 * 1024;

    private readonly IAsyncEnumerator<Order> _rows;
    private readonly bool _hasFirst;
    private readonly string? _customerId;
    private readonly bool _nobody;

    private OrderStream(IAsyncEnumerator<Order> rows, bool hasFirst, string? customerId = null, bool nobody = false)
    {
        _rows = rows;
        _hasFirst = hasFirst;
        _customerId = customerId;
        _nobody = nobody;
    }

    public int? StatusCode => StatusCodes.Status200OK;

    public static async Task<OrderStream> OpenAsync(IAsyncEnumerable<Order> orders,
        CancellationToken cancellationToken)
    {
        var rows = orders.GetAsyncEnumerator(cancellationToken);
        try
        {
            return new OrderStream(rows, await rows.MoveNextAsync());
        }
        catch
        {
            await rows.DisposeAsync();
            throw;
        }
    }

    /// <summary>The same stream, writing only <paramref name="customerId"/>'s orders (a customer-scoped token's
    /// view).</summary>
    public IResult OnlyOf(string customerId) => new OrderStream(_rows, _hasFirst, customerId,
        _nobody || (_customerId is not null && !string.Equals(_customerId, customerId, StringComparison.Ordinal)));

    public static void PopulateMetadata(MethodInfo method, EndpointBuilder builder)
    {
        builder.Metadata.Add(new ProducesResponseTypeMetadata(StatusCodes.Status200OK, typeof(Order[]),
            ["application/json"]));
        builder.Metadata.Add(new RequestTimeoutAttribute(TimeoutPolicy));
    }

    /// <summary>Past its deadline (or with the client gone) a begun response is cut off: the connection is aborted and
    /// the rows' database connection released.</summary>
    public async Task ExecuteAsync(HttpContext httpContext)
    {
        try
        {
            await WriteAsync(httpContext);
        }
        catch (Exception) when (httpContext.RequestAborted.IsCancellationRequested && httpContext.Response.HasStarted)
        {
            httpContext.Abort();
        }
    }

    private async Task WriteAsync(HttpContext httpContext)
    {
        await using (_rows)
        {
            var response = httpContext.Response;
            var cancellationToken = httpContext.RequestAborted;
            var options = httpContext.RequestServices.GetRequiredService<IOptions<JsonOptions>>()
                .Value.SerializerOptions;
            var order = (JsonTypeInfo<Order>)options.GetTypeInfo(typeof(Order));

            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = "application/json; charset=utf-8";
            var body = response.BodyWriter;

            // Rows reach the response only at a flush, so that a fault before the first one still gets a clean 503.
            var buffer = new ArrayBufferWriter<byte>(BufferSize);
            using var writer = new Utf8JsonWriter(buffer,
                new JsonWriterOptions { Encoder = options.Encoder, SkipValidation = true });
            writer.WriteStartArray();
            if (_hasFirst)
            {
                var written = 0;
                do
                {
                    if (!Kept(_rows.Current))
                    {
                        continue;
                    }

                    JsonSerializer.Serialize(writer, _rows.Current, order);
                    if (++written % FlushEvery == 0)
                    {
                        await FlushAsync();
                    }
                }
                while (await _rows.MoveNextAsync());
            }

            writer.WriteEndArray();
            await FlushAsync();

            async ValueTask FlushAsync()
            {
                writer.Flush();
                await body.WriteAsync(buffer.WrittenMemory, cancellationToken);
                buffer.ResetWrittenCount();
            }
        }
    }

    private bool Kept(Order order) =>
        !_nobody && (_customerId is null || string.Equals(order.CustomerId, _customerId, StringComparison.Ordinal));
}
