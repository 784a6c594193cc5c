using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.AspNetCore.Http.Json;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.Extensions.Options;
using OrderService.Data;
using OrderService.Data.Orders;

namespace OrderService.Apis;

/// <summary>
/// 200 with a JSON array of orders written as rows arrive: a Utf8JsonWriter over the response pipe,
/// flushed every <see cref="FlushEvery"/> orders, so memory stays flat however many rows there are.
/// It is created only after the first row (or the end) has arrived: a store fault before any row is
/// still an exception the handler turns into a clean 503, because nothing has been sent yet.
/// The rows are Orders, serialized with the API's JSON context, or, from a store that offers it
/// (<see cref="IOrderJsonReads"/>), orders already as API JSON that write themselves into the same writer:
/// the same bytes either way (<see cref="OrderRows"/>).
/// </summary>
public sealed class OrderStream : IResult, IEndpointMetadataProvider, IStatusCodeHttpResult
{
    private const int FlushEvery = 32;

    private readonly OrderRows _rows;
    private readonly bool _hasFirst;

    private OrderStream(OrderRows rows, bool hasFirst)
    {
        _rows = rows;
        _hasFirst = hasFirst;
    }

    public int? StatusCode => StatusCodes.Status200OK;

    /// <summary>Starts the query and waits for its first row.</summary>
    public static Task<OrderStream> OpenAsync(IAsyncEnumerable<Order> orders, CancellationToken cancellationToken) =>
        OpenAsync(new OrderRows.OfOrders(orders.GetAsyncEnumerator(cancellationToken)));

    /// <summary>Starts the query of rows already as API JSON and waits for its first row.</summary>
    public static Task<OrderStream> OpenAsync(IAsyncEnumerable<OrderJsonRow> orders, CancellationToken cancellationToken) =>
        OpenAsync(new OrderRows.OfJson(orders.GetAsyncEnumerator(cancellationToken)));

    /// <summary>The same stream, writing only <paramref name="customerId"/>'s orders (a customer-scoped token's view).</summary>
    public OrderStream OnlyOf(string customerId) => new(_rows.OnlyOf(customerId), _hasFirst);

    public static void PopulateMetadata(MethodInfo method, EndpointBuilder builder) =>
        builder.Metadata.Add(new ProducesResponseTypeMetadata(StatusCodes.Status200OK, typeof(Order[]), ["application/json"]));

    public async Task ExecuteAsync(HttpContext httpContext)
    {
        await using (_rows.ConfigureAwait(false))
        {
            var response = httpContext.Response;
            var cancellationToken = httpContext.RequestAborted;
            var options = httpContext.RequestServices.GetRequiredService<IOptions<JsonOptions>>().Value.SerializerOptions;
            var order = (JsonTypeInfo<Order>)options.GetTypeInfo(typeof(Order));

            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = "application/json; charset=utf-8";
            var body = response.BodyWriter;
            using var writer = new Utf8JsonWriter(body, new JsonWriterOptions { Encoder = options.Encoder, SkipValidation = true });
            writer.WriteStartArray();
            if (_hasFirst)
            {
                var written = 0;
                do
                {
                    if (!_rows.Kept())
                    {
                        continue;
                    }

                    _rows.Write(writer, order);
                    if (++written % FlushEvery == 0)
                    {
                        writer.Flush();
                        await body.FlushAsync(cancellationToken).ConfigureAwait(false);
                    }
                }
                while (await _rows.MoveNextAsync().ConfigureAwait(false));
            }

            writer.WriteEndArray();
            writer.Flush();
            await body.FlushAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    private static async Task<OrderStream> OpenAsync(OrderRows rows)
    {
        try
        {
            return new OrderStream(rows, await rows.MoveNextAsync().ConfigureAwait(false));
        }
        catch
        {
            await rows.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }
}
