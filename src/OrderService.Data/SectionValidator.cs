using Microsoft.Extensions.Options;

namespace OrderService.Data;

/// <summary>
/// Runs a generated [OptionsValidator] under the section's path, so a failure names the key
/// ("The field Store.Sqlite.GroupCommitMaxBatch ...") rather than the class.
/// </summary>
public sealed class SectionValidator<TOptions>(string section, IValidateOptions<TOptions> validator)
    : IValidateOptions<TOptions>
    where TOptions : class
{
    public ValidateOptionsResult Validate(string? name, TOptions options) => validator.Validate(section, options);
}
