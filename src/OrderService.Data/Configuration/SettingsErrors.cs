using Microsoft.Extensions.Options;

namespace OrderService.Data.Configuration;

/// <summary>Tells configuration errors from bugs, and words each configuration error as one line.</summary>
public static class SettingsErrors
{
    private const string BinderAssembly = "Microsoft.Extensions.Configuration.Binder";

    /// <summary>One line per bad setting in <paramref name="exception"/>; none if any part is not one.</summary>
    public static IReadOnlyList<string> Describe(Exception exception)
    {
        var parts = exception is AggregateException aggregate ? aggregate.Flatten().InnerExceptions : [exception];
        var lines = new List<string>();
        foreach (var part in parts)
        {
            switch (part)
            {
                case OptionsValidationException invalid:
                    lines.AddRange(invalid.Failures.Select(SettingError.OneLine));
                    break;

                // A value our conversion check did not foresee: the binder's message names the key and the type.
                case InvalidOperationException { Source: BinderAssembly } binder:
                    lines.Add(SettingError.OneLine(
                        $"Invalid setting: {binder.Message} {binder.InnerException?.Message}"));
                    break;

                default:
                    return [];
            }
        }

        return lines.Distinct(StringComparer.Ordinal).ToList();
    }
}
