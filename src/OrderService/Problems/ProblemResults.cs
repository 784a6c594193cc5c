using System.Reflection;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Mvc;

namespace OrderService.Problems;

/// <summary>A ProblemDetails answer whose status is fixed by its type.</summary>
public abstract class ProblemResult(ProblemDetails problem) : IResult, IStatusCodeHttpResult, IValueHttpResult,
    IValueHttpResult<ProblemDetails>
{
    public ProblemDetails Value { get; } = problem;

    object? IValueHttpResult.Value => Value;

    public int? StatusCode => Value.Status;

    public Task ExecuteAsync(HttpContext httpContext) => ProblemSetup.WriteAsync(httpContext, Value);

    protected static void Describe(EndpointBuilder builder, int statusCode) =>
        builder.Metadata.Add(new ProducesResponseTypeMetadata(statusCode, typeof(ProblemDetails),
            [ProblemSetup.ContentType]));
}

/// <summary>404: no order (or customer) with that id.</summary>
public sealed class NotFoundProblem(ProblemDetails problem) : ProblemResult(problem), IEndpointMetadataProvider
{
    public static void PopulateMetadata(MethodInfo method, EndpointBuilder builder) =>
        Describe(builder, StatusCodes.Status404NotFound);
}

/// <summary>409: the transition is illegal from the current status, or If-Match named a stale version.</summary>
public sealed class ConflictProblem(ProblemDetails problem) : ProblemResult(problem), IEndpointMetadataProvider
{
    public static void PopulateMetadata(MethodInfo method, EndpointBuilder builder) =>
        Describe(builder, StatusCodes.Status409Conflict);
}

/// <summary>422: an Idempotency-Key reused for a different request (another body, step or order).</summary>
public sealed class UnprocessableProblem(ProblemDetails problem) : ProblemResult(problem), IEndpointMetadataProvider
{
    public static void PopulateMetadata(MethodInfo method, EndpointBuilder builder) =>
        Describe(builder, StatusCodes.Status422UnprocessableEntity);
}

/// <summary>503: the store cannot be reached (readiness).</summary>
public sealed class ServiceUnavailableProblem(ProblemDetails problem) : ProblemResult(problem),
    IEndpointMetadataProvider
{
    public static void PopulateMetadata(MethodInfo method, EndpointBuilder builder) =>
        Describe(builder, StatusCodes.Status503ServiceUnavailable);
}
