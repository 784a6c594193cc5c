using System.Text.Json.Serialization.Metadata;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace OrderService.Problems;

/// <summary>
/// Writes every problem the same way, whoever produced it (a handler, the exception handler, an empty
/// status code): application/problem+json, whatever the Accept header says, through the source-generated
/// metadata. Writing directly (rather than through IProblemDetailsService) keeps clients from getting an
/// empty body when they send an unusual Accept header.
/// </summary>
public static class ProblemWriter
{
    public const string ContentType = "application/problem+json";

    public static Task WriteAsync(HttpContext httpContext, ProblemDetails problem)
    {
        var response = httpContext.Response;
        var status = problem.Status ??= StatusCodes.Status500InternalServerError;
        response.StatusCode = status;
        problem.Type ??= DefaultType(status);

        // The same correlation id ASP.NET Core puts on its own problems, so a client report finds the log line.
        problem.Extensions.TryAdd("traceId", System.Diagnostics.Activity.Current?.Id ?? httpContext.TraceIdentifier);
        var options = httpContext.RequestServices.GetRequiredService<IOptions<Microsoft.AspNetCore.Http.Json.JsonOptions>>().Value.SerializerOptions;

        // The runtime type decides the shape: a validation problem carries its errors map.
        var typeInfo = (JsonTypeInfo<ProblemDetails>)options.GetTypeInfo(typeof(ProblemDetails));
        return problem is HttpValidationProblemDetails validation
            ? response.WriteAsJsonAsync(validation, (JsonTypeInfo<HttpValidationProblemDetails>)options.GetTypeInfo(typeof(HttpValidationProblemDetails)), ContentType, httpContext.RequestAborted)
            : response.WriteAsJsonAsync(problem, typeInfo, ContentType, httpContext.RequestAborted);
    }

    /// <summary>The RFC 9110 section of the status, as ASP.NET Core's own problems use.</summary>
    private static string? DefaultType(int status) => status switch
    {
        400 => "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        402 => "https://tools.ietf.org/html/rfc9110#section-15.5.3",
        404 => "https://tools.ietf.org/html/rfc9110#section-15.5.5",
        405 => "https://tools.ietf.org/html/rfc9110#section-15.5.6",
        406 => "https://tools.ietf.org/html/rfc9110#section-15.5.7",
        409 => "https://tools.ietf.org/html/rfc9110#section-15.5.10",
        413 => "https://tools.ietf.org/html/rfc9110#section-15.5.14",
        415 => "https://tools.ietf.org/html/rfc9110#section-15.5.16",
        422 => "https://tools.ietf.org/html/rfc9110#section-15.5.21",
        500 => "https://tools.ietf.org/html/rfc9110#section-15.6.1",
        503 => "https://tools.ietf.org/html/rfc9110#section-15.6.4",
        _ => null,
    };
}
