using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.AspNetCore.Http.Json;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.Extensions.Options;
using OrderService.Data.Orders;

namespace OrderService.Apis;

/// <summary>
/// 200 with a JSON array of orders written as rows arrive: a Utf8JsonWriter over the response pipe,
/// flushed every <see cref="FlushEvery"/> orders, so memory stays flat however many rows there are.
/// It is created only after the first row (or the end) has arrived: a store fault before any row is
/// still an exception the handler turns into a clean 503, because nothing has been sent yet.
/// </summary>
public sealed class OrderStream : IResult, IEndpointMetadataProvider, IStatusCodeHttpResult
{
    private const int FlushEvery = 32;

    private readonly IAsyncEnumerator<Order> _rows;
    private readonly bool _hasFirst;
    private readonly Func<Order, bool>? _keep;

    private OrderStream(IAsyncEnumerator<Order> rows, bool hasFirst, Func<Order, bool>? keep = null)
    {
        _rows = rows;
        _hasFirst = hasFirst;
        _keep = keep;
    }

    public int? StatusCode => StatusCodes.Status200OK;

    /// <summary>Starts the query and waits for its first row.</summary>
    public static async Task<OrderStream> OpenAsync(IAsyncEnumerable<Order> orders, CancellationToken cancellationToken)
    {
        var rows = orders.GetAsyncEnumerator(cancellationToken);
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

    /// <summary>The same stream, writing only the orders <paramref name="keep"/> accepts (a customer-scoped token's view).</summary>
    public OrderStream Where(Func<Order, bool> keep) => new(_rows, _hasFirst, _keep is null ? keep : order => _keep(order) && keep(order));

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
                    if (_keep?.Invoke(_rows.Current) == false)
                    {
                        continue;
                    }

                    JsonSerializer.Serialize(writer, _rows.Current, order);
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
}
