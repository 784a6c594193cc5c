using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc;

namespace OrderService.Problems;

/// <summary>Turns what ASP.NET Core rejects before a handler runs into a problem naming the wrong field.</summary>
public static partial class BadRequestProblems
{
    public static ProblemDetails From(BadHttpRequestException exception) => exception.StatusCode switch
    {
        StatusCodes.Status413PayloadTooLarge => TooLarge(),
        StatusCodes.Status415UnsupportedMediaType => UnsupportedMediaType(),
        StatusCodes.Status400BadRequest => BadRequest(exception),
        _ => new ProblemDetails { Status = exception.StatusCode, Title = "Bad request", Detail = exception.Message },
    };

    public static ProblemDetails TooLarge() => new()
    {
        Status = StatusCodes.Status413PayloadTooLarge,
        Title = "Request body too large",
        Detail = $"Request bodies are capped at {RequestLimits.MaxBodyBytes / 1024 / 1024} MiB.",
    };

    public static ProblemDetails UnsupportedMediaType() => new()
    {
        Status = StatusCodes.Status415UnsupportedMediaType,
        Title = "Unsupported media type",
        Detail = "Request bodies must be application/json.",
    };

    private static ProblemDetails BadRequest(BadHttpRequestException exception)
    {
        if (exception.InnerException is JsonException json)
        {
            var wrongType = json.Message.Contains("could not be converted", StringComparison.Ordinal);
            return Invalid(FieldOf(json.Path),
                wrongType ? "The value has the wrong JSON type or is out of range." : "The JSON is malformed here.");
        }

        var binding = FailedBinding().Match(exception.Message);
        if (binding.Success)
        {
            return Invalid(binding.Groups["name"].Value, NotAValidValue(binding.Groups["value"].Value));
        }

        // "Required parameter ... was not provided from body" and its implicit-body twin: no usable body at all.
        return exception.Message.Contains("body", StringComparison.OrdinalIgnoreCase)
            ? Invalid("body", "A JSON request body is required.")
            : new ProblemDetails { Status = StatusCodes.Status400BadRequest, Title = "The request is invalid.", Detail =
                exception.Message };
    }

    /// <summary>What a value that does not parse gets, from the binder or from our own rules.</summary>
    public static string NotAValidValue(string value) => $"'{value}' is not a valid value.";

    private static HttpValidationProblemDetails Invalid(string field, string message) =>
        new(new Dictionary<string, string[]> { [field] = [message] })
    {
        Status = StatusCodes.Status400BadRequest,
    };

    private static string FieldOf(string? path) =>
        string.IsNullOrEmpty(path)
            || path == "$" ? "body" : path.StartsWith("$.", StringComparison.Ordinal) ? path[2..] : path.TrimStart('$');

    // The message RequestDelegateFactory throws for an unparsable route, query or header value.
    [GeneratedRegex("^Failed to bind parameter \"(?:[^\"]* )?(?<name>[^\" ]+)\" from \"(?<value>.*)\"\\.$",
        RegexOptions.Singleline)]
    private static partial Regex FailedBinding();
}
