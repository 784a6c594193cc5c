using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.Extensions.Options;
using Microsoft.OpenApi;
using OrderService.Data;
using OrderService.Data.Orders;

namespace OrderService.ServiceDefaults;

[Description("The OpenAPI document (/openapi/v1.json) and Swagger UI (/swagger). With Authorization:Mode=Bearer " +
    "both need a token.")]
public sealed class OpenApiSettings
{
    public const string SectionName = "OpenApi";

    [Description("true: serve the document and Swagger UI. Unset: served in Development only.")]
    public bool? Enabled { get; set; }
}

public static class OpenApiSetup
{
    private const string Description =
        "Orders move Created -> Paid -> Shipped -> Completed (cancel from Created or Paid); every step appends an " +
        "event and bumps `version`. " +
        "Every error is an RFC 7807 problem (application/problem+json); validation problems carry an `errors` map " +
        "keyed by field path (lines[2].quantity). " +
        "Any call that reaches the store may answer 503 with Retry-After.";

    private static readonly Dictionary<string, string> TagDescriptions = new()
    {
        ["Orders"] = "Create an order, read it, move it through its workflow (pay, ship, complete, or cancel), and " +
            "read many by id.",
        ["Customers"] = "A customer's orders, newest first.",
        ["Health"] = "Probes for an orchestrator: liveness (the process) and readiness (the store).",
    };

    private static readonly Dictionary<string, string> ProblemMeanings = new()
    {
        ["400"] = "Invalid input: `errors` maps each field path (lines[2].quantity, If-Match, id) to what is wrong.",
        ["401"] = "No valid bearer token (missing, expired, wrong issuer, audience or signature); WWW-Authenticate " +
            "says which.",
        ["404"] = "No order with this id.",
        ["409"] = "The step is illegal from the current status (type ...:illegal-transition) or If-Match is stale " +
            "(...:stale-version). `currentStatus` and `currentVersion` tell what the order is now.",
        ["413"] = "The body is over 1 MiB.",
        ["415"] = "The body is not application/json.",
        ["422"] = "The Idempotency-Key was used before for a different request (another body, step or order).",
        ["503"] = "The store is unreachable, timed out after bounded retries, or its circuit is open (the store is " +
            "not called until the break ends).",
    };

    public static bool IsServed(IServiceProvider services) =>
        services.GetRequiredService<IOptions<OpenApiSettings>>().Value.Enabled
        ?? services.GetRequiredService<IHostEnvironment>().IsDevelopment();

    public static IServiceCollection AddOrderServiceOpenApi(this IServiceCollection services,
        IConfiguration configuration)
    {
        services.AddSettings<OpenApiSettings>(OpenApiSettings.SectionName, static (c, o) => c.Bind(o), null,
            configuration);
        return services.AddOpenApi(options =>
        {
            options.AddDocumentTransformer(static (document, _, _) =>
            {
                document.Info.Title = "OrderService";
                document.Info.Description = Description;
                DescribeServersAndTags(document);
                return Task.CompletedTask;
            });
            options.AddSchemaTransformer(static (schema, context, _) =>
            {
                DescribeWireFormat(schema, context);
                return Task.CompletedTask;
            });
            options.AddOperationTransformer(static (operation, _, _) =>
            {
                DescribeQuery(operation);
                DescribeProblems(operation);
                return Task.CompletedTask;
            });
        });
    }

    private static void DescribeServersAndTags(OpenApiDocument document)
    {
        foreach (var server in document.Servers ?? [])
        {
            if (server.Url is { Length: > 1 } url && url.EndsWith('/'))
            {
                server.Url = url.TrimEnd('/');
            }
        }

        foreach (var tag in document.Tags ?? new HashSet<OpenApiTag>())
        {
            if (tag.Name is { } name && TagDescriptions.TryGetValue(name, out var description))
            {
                tag.Description ??= description;
            }
        }
    }

    private static void DescribeWireFormat(OpenApiSchema schema, OpenApiSchemaTransformerContext context)
    {
        var declared = context.JsonTypeInfo.Type;
        var type = Nullable.GetUnderlyingType(declared) ?? declared;
        var nullable = type != declared ? JsonSchemaType.Null : 0;
        if (type == typeof(DateTimeOffset))
        {
            schema.Type = JsonSchemaType.String | nullable;
            schema.Format = "date-time";
            schema.Description ??= "UTC, microseconds: yyyy-MM-ddTHH:mm:ss.ffffffZ.";
        }
        else if (type == typeof(decimal))
        {
            schema.Type = JsonSchemaType.Number | nullable;
            schema.Format = "decimal";
        }
        else if (type == typeof(OrderStatus))
        {
            // The converter writes the name; without a type, generators read the enum as `any`.
            schema.Type = JsonSchemaType.String | nullable;
        }

        // [Required] refuses null, but the schema keeps the member's nullable type.
        if (context.JsonPropertyInfo?.AttributeProvider?.IsDefined(typeof(RequiredAttribute), inherit: true) == true)
        {
            schema.Type &= ~JsonSchemaType.Null;
        }
    }

    private static void DescribeQuery(OpenApiOperation operation)
    {
        foreach (var parameter in operation.Parameters ?? [])
        {
            if (parameter is OpenApiParameter { In: ParameterLocation.Header, Name: "Idempotency-Key" } key)
            {
                key.Description = "1–128 printable ASCII characters. A retry with the same key and body returns the " +
                    "first answer (Idempotent-Replayed: true) and changes nothing; another request under the key is " +
                    "422. A key names one request of one order. With authorization on, keys are per caller " +
                    "(customer_id, else sub).";
                key.Schema = new OpenApiSchema
                {
                    Type = JsonSchemaType.String, MinLength = 1, MaxLength = 128,
                    Pattern = RequestLimits.IdempotencyKeyPattern,
                };
            }

            if (parameter is OpenApiParameter { In: ParameterLocation.Header, Name: "If-Match" } ifMatch)
            {
                ifMatch.Description = "The ETag of the order as last read, such as \"3\" (its version), or *: a " +
                    "stale version is 409.";
            }

            if (parameter is not OpenApiParameter { In: ParameterLocation.Query } query)
            {
                continue;
            }

            if (query.Name == "status")
            {
                query.Description = "Only orders in this status (case-insensitive).";
                query.Schema = new OpenApiSchema
                {
                    Type = JsonSchemaType.String,
                    Enum = [.. Enum.GetNames<OrderStatus>().Select(static name => (JsonNode)JsonValue.Create(name))],
                };
            }
            else if (query.Name == "cursor")
            {
                query.Description = "Where the page starts: the cursor from the previous page's Link header " +
                    "(rel=\"next\"), unchanged. Absent: the newest orders.";
                query.Schema = new OpenApiSchema { Type = JsonSchemaType.String, MaxLength = Apis.PageCursor.Length };
            }
            else if (query.Name == "limit")
            {
                query.Description = "At most this many orders, newest first.";
                query.Schema = new OpenApiSchema
                {
                    Type = JsonSchemaType.Integer,
                    Format = "int32",
                    Minimum = RequestLimits.MinListLimit.ToString(System.Globalization.CultureInfo.InvariantCulture),
                    Maximum = RequestLimits.MaxListLimit.ToString(System.Globalization.CultureInfo.InvariantCulture),
                    Default = JsonValue.Create(RequestLimits.DefaultListLimit),
                };
            }
        }
    }

    private static void DescribeProblems(OpenApiOperation operation)
    {
        foreach (var (status, answer) in operation.Responses ?? [])
        {
            if (answer is OpenApiResponse described && ProblemMeanings.TryGetValue(status, out var meaning))
            {
                described.Description = meaning;
            }
        }

        if (operation.OperationId == "ListCustomerOrders"
            && operation.Responses?.TryGetValue("200", out var page) == true && page is OpenApiResponse listed)
        {
            listed.Headers ??= new Dictionary<string, IOpenApiHeader>();
            listed.Headers["Link"] = new OpenApiHeader
            {
                Description = "<…?limit=&status=&cursor=…>; rel=\"next\" when more orders follow this page; absent " +
                    "on the last page.",
                Schema = new OpenApiSchema { Type = JsonSchemaType.String },
            };
        }

        if (operation.OperationId != "Ready" && operation.Responses?.TryGetValue("503", out var unavailable) == true
            && unavailable is OpenApiResponse response)
        {
            response.Headers ??= new Dictionary<string, IOpenApiHeader>();
            response.Headers["Retry-After"] = new OpenApiHeader
            {
                Description = "Seconds to wait before retrying: what is left of an open circuit's break, else " +
                    "Resilience:RetryAfterSeconds.",
                Schema = new OpenApiSchema { Type = JsonSchemaType.Integer },
            };
        }
    }
}
