using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace OrderService.Data.Hosting;

/// <summary>Store:{provider}:ReadConnectionString: only with its provider, parsed by its driver, unprinted.</summary>
public sealed class ReadConnectionStringValidator(IConfiguration configuration, StoreProvider provider,
    string allowed, string reason) : IValidateOptions<StoreOptions>
{
    public ValidateOptionsResult Validate(string? name, StoreOptions options)
    {
        var key = $"{StoreOptions.SectionName}:{provider}:ReadConnectionString";
        var value = configuration[key];
        if (string.IsNullOrWhiteSpace(value))
        {
            return ValidateOptionsResult.Success;
        }

        // Silently reading from the primary would hide a setting the operator believes is in force.
        if (options.Provider != provider)
        {
            return ValidateOptionsResult.Fail($"Invalid setting {key} = {ConnectionStringValidator.Hidden}; " +
                $"allowed: empty unless Store:Provider={provider} ({reason}).");
        }

        return ConnectionStringValidator.Refusal(provider, value) is null
            ? ValidateOptionsResult.Success
            : ValidateOptionsResult.Fail($"Invalid setting {key} = {ConnectionStringValidator.Hidden}; allowed: " +
                $"{allowed}.");
    }
}
