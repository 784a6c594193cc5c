using Microsoft.Extensions.Options;
using OrderService.Data.Configuration;

namespace OrderService.Data;

/// <summary>Cross-field rules the data annotations cannot express; each failure is one <see cref="SettingError"/> line.</summary>
public sealed class StoreOptionsValidator : IValidateOptions<StoreOptions>
{
    public ValidateOptionsResult Validate(string? name, StoreOptions options)
    {
        var failures = new List<string>();
        if (options.Provider == StoreProvider.SqlServer && options.Layout == StoreLayout.Document)
        {
            failures.Add(SettingError.Invalid("Store:Layout", options.Layout,
                "Relational with Store:Provider=SqlServer (the document layout needs PostgreSql or Sqlite)"));
        }

        if (options.Provider != StoreProvider.PostgreSql && !string.IsNullOrWhiteSpace(options.PostgreSql.ReadConnectionString))
        {
            // Silently reading from the primary would hide a setting the operator believes is in force.
            failures.Add(SettingError.Invalid("Store:PostgreSql:ReadConnectionString", options.PostgreSql.ReadConnectionString,
                "empty unless Store:Provider=PostgreSql (reads from standbys are a PostgreSQL switch)"));
        }

        // Unknown enum values and ranges are checked for every options class alike (Configuration/SettingRules).
        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
