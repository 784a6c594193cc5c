using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using OrderService.Data;
using OrderService.Data.Orders;

namespace OrderService.Problems;

public static class ApiProblems
{
    public const string OrderNotFoundType = "urn:orderservice:problem:order-not-found";
    public const string IllegalTransitionType = "urn:orderservice:problem:illegal-transition";
    public const string StaleVersionType = "urn:orderservice:problem:stale-version";
    public const string IdempotencyKeyReusedType = "urn:orderservice:problem:idempotency-key-reused";
    public const string StoreUnavailableType = "urn:orderservice:problem:store-unavailable";

    public static ProblemHttpResult OrderNotFound(Guid id) => TypedResults.Problem(new ProblemDetails
    {
        Type = OrderNotFoundType,
        Title = "Order not found",
        Status = StatusCodes.Status404NotFound,
        Detail = $"There is no order {id}.",
    });

    /// <summary>A conditional write that matched nothing: the status forbids it, or If-Match is stale.</summary>
    public static ProblemHttpResult Conflict(TransitionResult result, OrderAction action, int? expectedVersion)
    {
        var stale = result.Outcome == TransitionOutcome.StaleVersion;
        var problem = new ProblemDetails
        {
            Type = stale ? StaleVersionType : IllegalTransitionType,
            Title = stale ? "Stale version" : "Illegal transition",
            Status = StatusCodes.Status409Conflict,
            Detail = stale
                ? $"If-Match expected version {expectedVersion}, but the order is at version " +
                    $"{result.CurrentVersion}. Read it again and retry."
                : $"{action} is not allowed from status {result.CurrentStatus}.",
        };
        if (result.CurrentStatus is { } status)
        {
            problem.Extensions["currentStatus"] = status.ToString();
        }

        if (result.CurrentVersion is { } version)
        {
            problem.Extensions["currentVersion"] = version;
        }

        return TypedResults.Problem(problem);
    }

    public static ProblemHttpResult IdempotencyKeyReused() => TypedResults.Problem(new ProblemDetails
    {
        Type = IdempotencyKeyReusedType,
        Title = "Idempotency-Key reused",
        Status = StatusCodes.Status422UnprocessableEntity,
        Detail = "This Idempotency-Key was used before for a different request (another body, step or order). A key " +
            "names one request: use a new key for a new one.",
    });

    /// <param name="circuitOpen">The store failed repeatedly and is not being called until the break ends (the circuit
    /// breaker).</param>
    /// <param name="operatorReason">What an operator must fix (a database that does not exist), when that is the
    /// cause and the caller is an operator (<see cref="IOperatorAccess"/>).</param>
    public static ProblemDetails StoreUnavailable(int retryAfterSeconds, bool circuitOpen = false,
        string? operatorReason = null) => new()
    {
        Type = StoreUnavailableType,
        Title = "Store unavailable",
        Status = StatusCodes.Status503ServiceUnavailable,
        Detail = operatorReason is not null ? $"{operatorReason} Retry after {retryAfterSeconds} s."
            : circuitOpen ? $"The order store failed repeatedly; calls to it are paused (circuit open). Retry after " +
                $"{retryAfterSeconds} s."
            : $"The order store cannot be reached right now. Retry after {retryAfterSeconds} s.",
    };
}
