using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Mvc;

namespace OrderService.Problems;

/// <summary>
/// A bare error status (a 404 for an unknown path, 405, 415, 413 from a limit) becomes a problem body: what
/// UseStatusCodePages did here, with the same rule for "bare" (400–599, nothing written, no length, no content
/// type) and the same opt-out (an endpoint's <see cref="ISkipStatusCodePagesMetadata"/>). Ours because the
/// framework's allocates about 1 KB on EVERY request, error or not: a feature object set into the request's
/// feature collection, an Items dictionary entry and an async state machine. This one allocates nothing when
/// the rest of the pipeline completes synchronously, and one state machine otherwise.
/// </summary>
public sealed class StatusCodeProblems(RequestDelegate next)
{
    public Task InvokeAsync(HttpContext context)
    {
        // An endpoint that opts out is usually known before the handler runs, but routing may also come later.
        var pending = next(context);
        return pending.IsCompletedSuccessfully ? AnswerIfBare(context) : AnswerIfBareAfterAsync(pending, context);
    }

    private static async Task AnswerIfBareAfterAsync(Task pending, HttpContext context)
    {
        await pending.ConfigureAwait(false);
        await AnswerIfBare(context).ConfigureAwait(false);
    }

    private static Task AnswerIfBare(HttpContext context)
    {
        var response = context.Response;
        if (response.HasStarted
            || response.StatusCode is < 400 or >= 600
            || response.ContentLength.HasValue
            || !string.IsNullOrEmpty(response.ContentType)
            || context.GetEndpoint()?.Metadata.GetMetadata<ISkipStatusCodePagesMetadata>() is not null)
        {
            return Task.CompletedTask;
        }

        return ProblemWriter.WriteAsync(context, Problem(response.StatusCode));
    }

    private static ProblemDetails Problem(int status) => status switch
    {
        StatusCodes.Status415UnsupportedMediaType => BadRequestProblems.UnsupportedMediaType(),
        StatusCodes.Status413PayloadTooLarge => BadRequestProblems.TooLarge(),
        _ => new ProblemDetails
        {
            Status = status,
            Title = ReasonPhrase(status),
        },
    };

    private static string ReasonPhrase(int status)
    {
        var phrase = Microsoft.AspNetCore.WebUtilities.ReasonPhrases.GetReasonPhrase(status);
        return string.IsNullOrEmpty(phrase) ? "Error" : phrase;
    }
}
