using System.Globalization;
using OrderService.Data.Orders;

namespace OrderService.Apis;

/// <summary>The order version as a strong ETag ("3"), the value a client sends back in If-Match.</summary>
public static class ETags
{
    public static string For(int version) => string.Create(CultureInfo.InvariantCulture, $"\"{version}\"");

    public static Microsoft.AspNetCore.Http.HttpResults.Ok<Order> Ok(Order order, HttpResponse response)
    {
        response.Headers.ETag = For(order.Version);
        return TypedResults.Ok(order);
    }
}
