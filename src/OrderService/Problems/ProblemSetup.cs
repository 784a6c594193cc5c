using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;
using JsonOptions = Microsoft.AspNetCore.Http.Json.JsonOptions;

namespace OrderService.Problems;

/// <summary>Every failure is an application/problem+json answer written by IProblemDetailsService.</summary>
public static class ProblemSetup
{
    public static IServiceCollection AddApiProblems(this IServiceCollection services)
    {
        // Binding failures throw, so the exception handler can answer them as problems that name the field, instead of
        // an empty 400.
        services.Configure<RouteHandlerOptions>(routes => routes.ThrowOnBadRequest = true);
        services.AddProblemDetails(problems => problems.CustomizeProblemDetails = static context =>
        {
            if (context.ProblemDetails is HttpValidationProblemDetails invalid)
            {
                NameByJson(invalid.Errors, context.HttpContext);
            }
        });

        // Asked only when the framework's writer declines (an Accept without JSON), which would leave a status page
        // empty and the validation filter's 400 as application/json.
        services.AddSingleton<IProblemDetailsWriter, AnyAcceptProblemWriter>();
        services.AddExceptionHandler<ApiExceptionHandler>();
        return services;
    }

    public static WebApplication UseApiProblems(this WebApplication app)
    {
        app.UseExceptionHandler();
        app.UseStatusCodePages(static context =>
            WriteAsync(context.HttpContext, ForStatus(context.HttpContext.Response.StatusCode)));
        return app;
    }

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

    /// <summary>AddValidation keys errors by member name (Lines[2].Quantity); docs/api.md keys them by JSON name
    /// (lines[2].quantity). A key with '-' is a header (If-Match) and keeps its spelling.</summary>
    private static void NameByJson(IDictionary<string, string[]> errors, HttpContext httpContext)
    {
        var policy = httpContext.RequestServices.GetRequiredService<IOptions<JsonOptions>>().Value.SerializerOptions
            .PropertyNamingPolicy;
        foreach (var key in policy is null ? [] : errors.Keys.Where(static key => !key.Contains('-')).ToArray())
        {
            var json = string.Join('.', key.Split('.').Select(policy!.ConvertName));
            if (json != key)
            {
                errors[json] = errors.TryGetValue(json, out var more) ? [.. more, .. errors[key]] : errors[key];
                errors.Remove(key);
            }
        }
    }

    private sealed class AnyAcceptProblemWriter(IServiceProvider services) : IProblemDetailsWriter
    {
        private IProblemDetailsWriter? _framework;

        public bool CanWrite(ProblemDetailsContext context) => true;

        public ValueTask WriteAsync(ProblemDetailsContext context) =>
            (_framework ??= services.GetServices<IProblemDetailsWriter>()
                .First(writer => writer is not AnyAcceptProblemWriter)).WriteAsync(context);
    }
}
