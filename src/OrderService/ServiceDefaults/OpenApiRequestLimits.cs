using System.Globalization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;
using OrderService.Contracts;

namespace OrderService.ServiceDefaults;

/// <summary>The limits as JSON Schema keywords, from <see cref="RequestLimits"/>, so the 400s cannot drift.</summary>
internal static class OpenApiRequestLimits
{
    /// <summary>OrderRequestRules.CustomerId's character set; a test checks both accept the same strings.</summary>
    public static readonly string CustomerIdPattern = $"^[A-Za-z0-9_-]{{1,{RequestLimits.MaxCustomerIdLength}}}$";

    /// <summary>Printable ASCII (space to tilde), as OrderRequestRules.IdempotencyKey checks it.</summary>
    public static readonly string IdempotencyKeyPattern = $"^[ -~]{{1,{RequestLimits.MaxIdempotencyKeyLength}}}$";

    private static readonly Dictionary<Type, Field[]> Bodies = new()
    {
        [typeof(CreateOrderRequest)] =
        [
            new("customerId", Required: true, CustomerId),
            new("lines", Required: true, static s => Items(s, 1, RequestLimits.MaxLines)),
        ],
        [typeof(CreateOrderLine)] =
        [
            new("sku", Required: true, static s => Length(s, 1, RequestLimits.MaxSkuLength)),
            new("quantity", Required: true, static s => Range(s, RequestLimits.MinQuantity, RequestLimits.MaxQuantity)),
            new("unitPrice", Required: true, static s => Range(s, 0m, RequestLimits.MaxUnitPrice)),
        ],
        [typeof(PayOrderRequest)] =
            [new("paymentReference", Required: false, static s =>
            Length(s, null, RequestLimits.MaxPaymentReferenceLength))],
        [typeof(ShipOrderRequest)] =
        [
            new("carrier", Required: true, static s => Length(s, 1, RequestLimits.MaxCarrierLength)),
            new("trackingNumber", Required: true, static s => Length(s, 1, RequestLimits.MaxTrackingNumberLength)),
        ],
        [typeof(CancelOrderRequest)] =
            [new("reason", Required: false, static s => Length(s, null, RequestLimits.MaxCancelReasonLength))],
        [typeof(OrderBatchRequest)] = [new("ids", Required: true, static s => Items(s, 1, RequestLimits.MaxBatchIds))],
    };

    /// <summary>Applies the limits to a request body.</summary>
    public static void DescribeBody(OpenApiSchema schema, OpenApiSchemaTransformerContext context)
    {
        if (context.JsonPropertyInfo is { DeclaringType: { } owner } property)
        {
            if (Bodies.TryGetValue(owner, out var declared)
                && Array.Find(declared, f => f.Name == property.Name) is { } field)
            {
                if (field.Required)
                {
                    schema.Type &= ~JsonSchemaType.Null;
                }

                field.Apply(schema);
            }

            return;
        }

        var type = context.JsonTypeInfo.Type;
        if (!Bodies.TryGetValue(type, out var fields) || schema.Properties is not { } properties)
        {
            return;
        }

        schema.Required ??= new HashSet<string>();
        foreach (var field in fields)
        {
            if (!properties.ContainsKey(field.Name))
            {
                throw new InvalidOperationException(
                    $"The OpenAPI schema of {type.Name} has no property '{field.Name}': update " +
                    $"{nameof(OpenApiRequestLimits)}.");
            }

            if (field.Required)
            {
                schema.Required.Add(field.Name);
            }
            else
            {
                schema.Required.Remove(field.Name);
            }
        }
    }

    /// <summary>The limits of the path and header parameters (the query's are in OpenApiSetup).</summary>
    public static void DescribeParameters(OpenApiOperation operation)
    {
        foreach (var parameter in operation.Parameters ?? [])
        {
            if (parameter is not OpenApiParameter { Schema: OpenApiSchema schema } described)
            {
                continue;
            }

            switch (described.In, described.Name)
            {
                case (ParameterLocation.Path, "customerId"):
                    described.Description ??= "1–64 characters of [A-Za-z0-9_-].";
                    CustomerId(schema);
                    break;
                case (ParameterLocation.Header, "Idempotency-Key"):
                    described.Description ??=
                        "1–128 printable ASCII characters. A retry with the same key and body gets the first answer " +
                        "again; the same key with another body is 422.";
                    schema.Pattern = IdempotencyKeyPattern;
                    Length(schema, 1, RequestLimits.MaxIdempotencyKeyLength);
                    break;
                case (ParameterLocation.Header, "If-Match"):
                    described.Description ??=
                        "The ETag of the order as last read, such as \"3\" (its version), or *: a stale version is " +
                        "409.";
                    break;
            }
        }
    }

    private static void CustomerId(OpenApiSchema schema)
    {
        schema.Pattern = CustomerIdPattern;
        Length(schema, 1, RequestLimits.MaxCustomerIdLength);
    }

    private static void Length(OpenApiSchema schema, int? min, int max)
    {
        schema.MinLength = min;
        schema.MaxLength = max;
    }

    private static void Items(OpenApiSchema schema, int min, int max)
    {
        schema.MinItems = min;
        schema.MaxItems = max;
    }

    private static void Range(OpenApiSchema schema, decimal min, decimal max)
    {
        schema.Minimum = min.ToString(CultureInfo.InvariantCulture);
        schema.Maximum = max.ToString(CultureInfo.InvariantCulture);
    }

    private sealed record Field(string Name, bool Required, Action<OpenApiSchema> Apply);
}
