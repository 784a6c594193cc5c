using System.Text.Json;
using System.Text.Json.Serialization;
using Microsoft.AspNetCore.Mvc;
using OrderService.Data.Orders;

namespace OrderService.Contracts;

/// <summary>
/// The host's own bodies: requests, health and problems. Orders are written by the core's
/// <see cref="OrderJsonContext"/> (the Order resource in docs/api.md is exactly <see cref="Order"/>).
/// </summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(CreateOrderRequest))]
[JsonSerializable(typeof(PayOrderRequest))]
[JsonSerializable(typeof(ShipOrderRequest))]
[JsonSerializable(typeof(CancelOrderRequest))]
[JsonSerializable(typeof(OrderBatchRequest))]
[JsonSerializable(typeof(HealthResponse))]
[JsonSerializable(typeof(ProblemDetails))]
[JsonSerializable(typeof(HttpValidationProblemDetails))]

// Problem extensions are typed object; these are the runtime types we put there.
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(int))]
public sealed partial class OrderServiceJsonContext : JsonSerializerContext
{
    /// <summary>
    /// Makes ASP.NET Core's serializer options (request binding, typed results, OpenAPI) match
    /// <see cref="OrderJsonContext"/>: the generated metadata first, strict numbers ("3" is not a quantity), nulls
    /// omitted. A context's generation options apply only to its own Default, so they are set here again.
    /// </summary>
    public static void Configure(JsonSerializerOptions options)
    {
        options.TypeInfoResolverChain.Insert(0, OrderJsonContext.Default);
        options.TypeInfoResolverChain.Insert(1, Default);
        options.PropertyNamingPolicy = JsonNamingPolicy.CamelCase;
        options.NumberHandling = JsonNumberHandling.Strict;

        // A key given twice is a 400: the default would keep the last value silently.
        options.AllowDuplicateProperties = false;
        options.DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull;
        options.Converters.Add(new UtcTimestampJsonConverter());
        options.Converters.Add(new MoneyJsonConverter());
        options.Converters.Add(new JsonStringEnumConverter<OrderStatus>());
    }
}
