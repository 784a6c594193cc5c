using Microsoft.AspNetCore.Http.HttpResults;

namespace OrderService.Validation;

/// <summary>Collects field errors, keyed by camelCase path (<c>lines[2].quantity</c>).</summary>
public struct ValidationErrors
{
    private Dictionary<string, string[]>? _errors;

    public readonly bool Any => _errors is not null;

    public void Add(string field, string message)
    {
        _errors ??= new Dictionary<string, string[]>(StringComparer.Ordinal);
        _errors[field] = _errors.TryGetValue(field, out var existing) ? [.. existing, message] : [message];
    }

    public readonly ValidationProblem ToProblem() =>
        TypedResults.ValidationProblem(_errors ?? []);
}
