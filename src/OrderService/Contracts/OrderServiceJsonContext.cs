using System.Text.Json;
using System.Text.Json.Serialization;
using Microsoft.AspNetCore.Mvc;
using OrderService.Data.Orders;

namespace OrderService.Contracts;

/// <summary>
/// The one System.Text.Json source-generation context: every request, response and problem the API
/// reads or writes, so nothing falls back to reflection on the hot path. The domain records are the
/// response contract (the Order resource in docs/api.md is exactly <see cref="Order"/>), so no mapping copy is made.
/// </summary>
[JsonSourceGenerationOptions(
    JsonSerializerDefaults.Web,
    UseStringEnumConverter = true,
    NumberHandling = JsonNumberHandling.Strict,
    AllowDuplicateProperties = false,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    Converters = [typeof(UtcTimestampJsonConverter), typeof(MoneyJsonConverter)])]
[JsonSerializable(typeof(Order))]
[JsonSerializable(typeof(Order[]))]
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
    /// Makes ASP.NET Core's serializer options (request binding, typed results, OpenAPI) match this
    /// context: the generated metadata first, strict numbers ("3" is not a quantity), nulls omitted.
    /// Converters from the attribute above apply only to the context's own options, so they are added here too.
    /// </summary>
    public static void Configure(JsonSerializerOptions options)
    {
        options.TypeInfoResolverChain.Insert(0, Default);
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
