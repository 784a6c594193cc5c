using System.Text.RegularExpressions;
using Microsoft.Extensions.Options;

namespace OrderService.Data;

/// <summary>
/// Runs a generated [OptionsValidator] under the section's path, so a failure names the configuration key
/// ("The field Store:Sqlite:GroupCommitMaxBatch ...") rather than the class.
/// </summary>
public sealed class SectionValidator<TOptions>(string section, IValidateOptions<TOptions> validator)
    : IValidateOptions<TOptions>
    where TOptions : class
{
    private readonly Regex _path = new($@"\b{Regex.Escape(section)}(\.\w+)+", RegexOptions.CultureInvariant);

    public ValidateOptionsResult Validate(string? name, TOptions options)
    {
        var result = validator.Validate(section, options);
        return result.Failed
            ? ValidateOptionsResult.Fail(result.Failures.Select(f => _path.Replace(f, m => m.Value.Replace('.', ':'))))
            : result;
    }
}
