using Microsoft.AspNetCore.Mvc;

namespace OrderService.Problems;

/// <summary>Every failure is an application/problem+json answer written by IProblemDetailsService.</summary>
public static class ProblemSetup
{
    public const string ContentType = "application/problem+json";

    public static IServiceCollection AddApiProblems(this IServiceCollection services)
    {
        // Binding failures throw, so the exception handler can answer them as problems that name the field, instead of
        // an empty 400.
        services.Configure<RouteHandlerOptions>(routes => routes.ThrowOnBadRequest = true);
        services.AddProblemDetails(problems => problems.CustomizeProblemDetails = static context =>
            context.ProblemDetails.Title ??= ReasonPhrase(context.ProblemDetails.Status));

        // Registered after the framework's writer, so it is asked only when that one declines (an Accept without JSON).
        services.AddSingleton<IProblemDetailsWriter, AnyAcceptProblemWriter>();
        services.AddExceptionHandler<ApiExceptionHandler>();
        return services;
    }

    public static WebApplication UseApiProblems(this WebApplication app)
    {
        app.UseExceptionHandler();
        app.UseStatusCodePages(static context =>
            WriteAsync(context.HttpContext, ForStatus(context.HttpContext.Response.StatusCode)));
        app.UseRequestBodyLimit();
        return app;
    }

    /// <summary>Answers <paramref name="problem"/> with its status, through IProblemDetailsService.</summary>
    public static Task WriteAsync(HttpContext httpContext, ProblemDetails problem)
    {
        httpContext.Response.StatusCode = problem.Status ??= StatusCodes.Status500InternalServerError;
        return httpContext.RequestServices.GetRequiredService<IProblemDetailsService>()
            .WriteAsync(new ProblemDetailsContext { HttpContext = httpContext, ProblemDetails = problem }).AsTask();
    }

    private static ProblemDetails ForStatus(int status) => status switch
    {
        StatusCodes.Status415UnsupportedMediaType => BadRequestProblems.UnsupportedMediaType(),
        StatusCodes.Status413PayloadTooLarge => BadRequestProblems.TooLarge(),
        _ => new ProblemDetails { Status = status },
    };

    private static string ReasonPhrase(int? status) =>
        Microsoft.AspNetCore.WebUtilities.ReasonPhrases.GetReasonPhrase(status ?? 0) is { Length: > 0 } phrase ? phrase
            : "Error";

    private sealed class AnyAcceptProblemWriter(IServiceProvider services) : IProblemDetailsWriter
    {
        private IProblemDetailsWriter? _framework;

        public bool CanWrite(ProblemDetailsContext context) => true;

        public ValueTask WriteAsync(ProblemDetailsContext context) =>
            (_framework ??= services.GetServices<IProblemDetailsWriter>()
                .First(writer => writer is not AnyAcceptProblemWriter)).WriteAsync(context);
    }
}
