using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using OrderService.Authorization;
using OrderService.Contracts;
using OrderService.Problems;

namespace OrderService.Apis;

/// <summary>
/// /health/live: the process answers (no dependency is checked, so a store outage never restarts the pod).
/// /health/ready: the store answers within the attempt timeout; 503 takes the pod out of rotation until it does.
/// Either way the status alone: why the store failed goes to the log and to /health/detail, for an operator only.
/// </summary>
public static class HealthApi
{
    public const string ReadyTag = "ready";

    private static readonly HealthResponse Healthy = new(nameof(HealthStatus.Healthy));

    public static RouteGroupBuilder MapHealthApi(this IEndpointRouteBuilder app)
    {
        var health = app.MapGroup("/health").WithTags("Health");
        health.MapGet("/live", static () => TypedResults.Ok(Healthy)).WithName("Live")
            .WithSummary("Liveness: the process answers.")
            .WithDescription("200 while the process answers. It checks no dependency, so a store outage never " +
                "restarts the service.");
        health.MapGet("/ready", ReadyAsync).WithName("Ready").WithSummary("Readiness: the store answers.")
            .WithDescription("200 when the store answers within the attempt timeout; 503 otherwise, which takes the " +
                "instance out of rotation until it recovers.")
            .ProducesProblem(StatusCodes.Status503ServiceUnavailable);
        health.MapGet("/detail", DetailAsync).WithName("ReadyDetail").ExcludeFromDescription();
        return health;
    }

    internal static Task<Results<Ok<HealthResponse>, ProblemHttpResult>> ReadyAsync(
        [FromServices] HealthCheckService health,
        CancellationToken cancellationToken) => ReportAsync(health, withReason: false, cancellationToken);

    internal static async Task<Results<Ok<HealthResponse>, ProblemHttpResult>> DetailAsync(HttpContext context,
        [FromServices] HealthCheckService health, [FromServices] IOperatorAccess operators,
        CancellationToken cancellationToken) =>
        operators.IsOperator(context)
            ? await ReportAsync(health, withReason: true, cancellationToken)
            : TypedResults.Problem(OperatorRule.Refused());

    private static async Task<Results<Ok<HealthResponse>, ProblemHttpResult>> ReportAsync(HealthCheckService health,
        bool withReason, CancellationToken cancellationToken)
    {
        var report = await health.CheckHealthAsync(static registration => registration.Tags.Contains(ReadyTag),
            cancellationToken);
        if (report.Status != HealthStatus.Unhealthy)
        {
            return TypedResults.Ok(Healthy);
        }

        var problem = new ProblemDetails
        {
            Type = ApiProblems.StoreUnavailableType,
            Title = "Not ready",
            Status = StatusCodes.Status503ServiceUnavailable,
            Detail = withReason
                ? string.Join("; ", report.Entries.Where(static e => e.Value.Status == HealthStatus.Unhealthy)
                    .Select(static e => $"{e.Key}: {e.Value.Description}"))
                : "The order store does not answer; the reason is logged.",
        };
        return TypedResults.Problem(problem);
    }
}
