using Microsoft.Extensions.Options;

namespace OrderService.Data;

/// <summary>Cross-field rules the data annotations cannot express; each failure names its configuration key.</summary>
public sealed class StoreOptionsValidator : IValidateOptions<StoreOptions>
{
    public ValidateOptionsResult Validate(string? name, StoreOptions options)
    {
        var failures = new List<string>();
        if (options.Provider == StoreProvider.SqlServer && options.Layout == StoreLayout.Document)
        {
            failures.Add("Store:Layout=Document is not available with Store:Provider=SqlServer; use Relational, or PostgreSql/Sqlite for the document layout.");
        }

        if (!Enum.IsDefined(options.Provider)) failures.Add($"Store:Provider has an unknown value '{options.Provider}'.");
        if (!Enum.IsDefined(options.Layout)) failures.Add($"Store:Layout has an unknown value '{options.Layout}'.");
        if (!Enum.IsDefined(options.UnitOfWork)) failures.Add($"Store:UnitOfWork has an unknown value '{options.UnitOfWork}'.");
        if (!Enum.IsDefined(options.WriteIsolation)) failures.Add($"Store:WriteIsolation has an unknown value '{options.WriteIsolation}'.");
        if (!Enum.IsDefined(options.ReadIsolation)) failures.Add($"Store:ReadIsolation has an unknown value '{options.ReadIsolation}'.");
        if (!Enum.IsDefined(options.BatchFilter)) failures.Add($"Store:BatchFilter has an unknown value '{options.BatchFilter}'.");
        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
