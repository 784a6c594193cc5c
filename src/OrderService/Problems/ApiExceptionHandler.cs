using Microsoft.AspNetCore.Diagnostics;
using Microsoft.Extensions.Options;
using OrderService.Data;
using OrderService.Data.Resilience;
using Polly.CircuitBreaker;

namespace OrderService.Problems;

/// <summary>Exceptions become answers here: a store fault is a 503, bad input a 4xx, only our bug a 500.</summary>
public sealed partial class ApiExceptionHandler(IOptions<ResilienceOptions> resilience, IOperatorAccess operators,
    ILogger<ApiExceptionHandler> logger) : IExceptionHandler
{
    public async ValueTask<bool> TryHandleAsync(HttpContext httpContext, Exception exception,
        CancellationToken cancellationToken)
    {
        switch (exception)
        {
            case StoreUnavailableException unavailable:
                if (unavailable.UnclassifiedEngineError is { } engineError)
                {
                    LogUnclassifiedStoreError(logger, unavailable.InnerException, engineError,
                        httpContext.Request.Method, httpContext.Request.Path.Value);
                }
                else
                {
                    // A fault only an operator can fix is worth a warning; a passing outage would flood the log.
                    LogStoreUnavailable(logger, unavailable.NeedsOperator ? LogLevel.Warning : LogLevel.Debug,
                        unavailable.Message);
                }

                var retryAfter = unavailable.RetryAfter is { } left
                    ? Math.Max(1, (int)Math.Ceiling(left.TotalSeconds))
                    : resilience.Value.RetryAfterSeconds;
                httpContext.Response.Headers.RetryAfter =
                    retryAfter.ToString(System.Globalization.CultureInfo.InvariantCulture);
                await ProblemSetup.WriteAsync(httpContext, ApiProblems.StoreUnavailable(
                    retryAfter, circuitOpen: unavailable.InnerException is BrokenCircuitException,
                    operatorReason: unavailable.NeedsOperator && operators.IsOperator(httpContext)
                        ? unavailable.Message : null));
                return true;

            case BadHttpRequestException badRequest:
                await ProblemSetup.WriteAsync(httpContext, BadRequestProblems.From(badRequest));
                return true;

            case OperationCanceledException when httpContext.RequestAborted.IsCancellationRequested:
                // The client went away; there is nobody to answer.
                return true;

            default:
                LogUnexpected(logger, exception, httpContext.Request.Method, httpContext.Request.Path.Value);
                await ProblemSetup.WriteAsync(httpContext, new Microsoft.AspNetCore.Mvc.ProblemDetails
                {
                    Status = StatusCodes.Status500InternalServerError,
                    Title = "Unexpected error",
                    Detail = "The service failed unexpectedly; the error is logged.",
                });
                return true;
        }
    }

    [LoggerMessage(Message = "Answered 503: {Reason}")]
    private static partial void LogStoreUnavailable(ILogger logger, LogLevel level, string reason);

    // Error: the store failed in a way it does not know (so it may not clear by itself); the engine's code says what.
    [LoggerMessage(Level = LogLevel.Error, Message =
        "Answered 503 for a store error the store does not classify on {Method} {Path}: {EngineError}")]
    private static partial void LogUnclassifiedStoreError(ILogger logger, Exception? exception, string engineError,
        string method, string? path);

    [LoggerMessage(Level = LogLevel.Error, Message = "Unhandled exception on {Method} {Path}")]
    private static partial void LogUnexpected(ILogger logger, Exception exception, string method, string? path);
}
