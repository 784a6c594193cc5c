using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Threading.RateLimiting;
using Microsoft.AspNetCore.Http.Timeouts;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.Options;
using OrderService.Apis;
using OrderService.Authorization;
using OrderService.Data;
using OrderService.Data.Resilience;
using OrderService.Problems;

namespace OrderService.ServiceDefaults;

/// <summary>ASP.NET Core's rate limiter (per client) and request time-outs (every endpoint; streams have their own
/// deadline, which also frees a slow reader's database connection).</summary>
public static class TrafficLimits
{
    public static WebApplicationBuilder AddTrafficLimits(this WebApplicationBuilder builder)
    {
        var services = builder.Services;
        // Bound where the type is concrete, so that the binding generator (Native AOT) sees each.
        services.AddSettings<RateLimitingOptions>(RateLimitingOptions.SectionName, static (c, o) => c.Bind(o),
            new RateLimitingOptionsValidator());
        services.AddSettings<RequestTimeoutSettings>(RequestTimeoutSettings.SectionName, static (c, o) => c.Bind(o),
            new RequestTimeoutSettingsValidator());

        services.AddRateLimiter(static _ => { });
        services.AddOptions<RateLimiterOptions>().Configure<IOptions<RateLimitingOptions>>(static (limiter, options) =>
        {
            var limits = options.Value;
            limiter.OnRejected = static (context, _) => Reject(context);
            limiter.GlobalLimiter = PartitionedRateLimiter.Create<HttpContext, string>(context =>
                context.Request.Path.StartsWithSegments("/health", StringComparison.OrdinalIgnoreCase)
                    ? RateLimitPartition.GetNoLimiter(string.Empty)
                    : RateLimitPartition.GetFixedWindowLimiter(ClientOf(context), _ => new FixedWindowRateLimiterOptions
                    {
                        PermitLimit = limits.PermitLimit,
                        Window = TimeSpan.FromSeconds(limits.WindowSeconds),
                    }));
        });

        services.AddRequestTimeouts();
        services.AddOptions<RequestTimeoutOptions>()
            .Configure<IOptions<RequestTimeoutSettings>, IOptions<ResilienceOptions>>(
                static (timeouts, settings, resilience) =>
                {
                    var retryAfter = resilience.Value.RetryAfterSeconds;
                    timeouts.DefaultPolicy = TimeOut(settings.Value.Seconds, retryAfter);
                    timeouts.AddPolicy(OrderStream.TimeoutPolicy, TimeOut(settings.Value.StreamSeconds, retryAfter));
                });
        return builder;
    }

    /// <summary>After authentication, so that the limiter sees the token's subject.</summary>
    public static WebApplication UseTrafficLimits(this WebApplication app)
    {
        if (app.Services.GetRequiredService<IOptions<RateLimitingOptions>>().Value.PermitLimit > 0)
        {
            app.UseRateLimiter();
        }

        app.UseRequestTimeouts();
        return app;
    }

    private static string ClientOf(HttpContext context) =>
        OrderScopes.Subject(context.User) is { } subject
            ? "sub:" + subject
            : "ip:" + context.Connection.RemoteIpAddress;

    private static async ValueTask Reject(OnRejectedContext rejected)
    {
        var context = rejected.HttpContext;
        var seconds = rejected.Lease.TryGetMetadata(MetadataName.RetryAfter, out var after)
            ? Math.Max(1, (int)Math.Ceiling(after.TotalSeconds))
            : context.RequestServices.GetRequiredService<IOptions<RateLimitingOptions>>().Value.WindowSeconds;
        await Answer(context, StatusCodes.Status429TooManyRequests, seconds, "Too many requests",
            "This client has sent more requests than its limit allows; retry after Retry-After seconds.");
    }

    /// <summary>A request that outlives its time-out: as for a store time-out, a 503 the contract retries.</summary>
    private static RequestTimeoutPolicy TimeOut(int seconds, int retryAfterSeconds) => new()
    {
        Timeout = TimeSpan.FromSeconds(seconds),
        TimeoutStatusCode = StatusCodes.Status503ServiceUnavailable,
        WriteTimeoutResponse = context => Answer(context, StatusCodes.Status503ServiceUnavailable,
            retryAfterSeconds, "Request timed out",
            "The request did not finish in time and may or may not have been applied; retry it after Retry-After " +
            "seconds with the same Idempotency-Key."),
    };

    private static Task Answer(HttpContext context, int status, int retryAfterSeconds, string title, string detail)
    {
        context.Response.Headers.RetryAfter = retryAfterSeconds.ToString(CultureInfo.InvariantCulture);
        return ProblemSetup.WriteAsync(context, new ProblemDetails { Status = status, Title = title, Detail = detail });
    }
}

[Description("ASP.NET Core's rate limiter: a fixed window per client, the token's sub when authenticated, else the " +
    "remote address (behind a proxy, anonymous callers share the proxy's). Over the limit: 429 with Retry-After. " +
    "/health is not limited.")]
public sealed class RateLimitingOptions
{
    public const string SectionName = "RateLimiting";

    [Description("Requests one client may send per window; 0 turns the limiter off.")]
    [Range(0, 1_000_000)]
    public int PermitLimit { get; set; } = 1_000;

    [Description("The window (seconds) over which RateLimiting:PermitLimit is counted.")]
    [Range(1, 3600)]
    public int WindowSeconds { get; set; } = 10;
}

[Description("ASP.NET Core's request time-outs. A request still running at its time-out is cancelled; one that has " +
    "not answered yet gets 503 with Retry-After, a streamed response that has begun is cut off.")]
public sealed class RequestTimeoutSettings
{
    public const string SectionName = "RequestTimeouts";

    [Description("The time-out of every endpoint but the streamed ones.")]
    [Range(1, 3600)]
    public int Seconds { get; set; } = 30;

    [Description("The deadline of a streamed response (POST /orders/batch, GET /customers/{customerId}/orders): " +
        "it frees the database connection a slow reader would otherwise hold.")]
    [Range(1, 3600)]
    public int StreamSeconds { get; set; } = 10;
}

[OptionsValidator]
public sealed partial class RateLimitingOptionsValidator : IValidateOptions<RateLimitingOptions>;

[OptionsValidator]
public sealed partial class RequestTimeoutSettingsValidator : IValidateOptions<RequestTimeoutSettings>;
