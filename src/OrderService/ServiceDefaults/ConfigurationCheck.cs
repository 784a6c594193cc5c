using System.Reflection;
using Microsoft.Extensions.Options;

namespace OrderService.ServiceDefaults;

/// <summary>
/// The start-up check of every options class (ValidateOnStart), and --check-config, which runs it and exits without
/// opening the store.
/// </summary>
public static class ConfigurationCheck
{
    public const string Flag = "--check-config";

    public const string Valid = "configuration valid";

    // The wording of the binder and of its source generator (Native AOT) alike.
    private const string ConversionFailure = "Failed to convert configuration value ";

    public static bool IsAsked(string[] args) => args.Contains(Flag, StringComparer.Ordinal);

    /// <summary>The arguments without the switch, which would swallow a following --Section:Key as its value.</summary>
    public static string[] WithoutFlag(string[] args) =>
        [.. args.Where(a => !string.Equals(a, Flag, StringComparison.Ordinal))];

    /// <summary>Checks every options class first: false once bad settings are printed; a test host throws.</summary>
    public static bool SettingsAreValid(this IHost host)
    {
        try
        {
            host.Services.GetService<IStartupValidator>()?.Validate();
            return true;
        }
        catch (Exception exception) when (IsOwnProcess(host) && Describe(exception) is { Count: > 0 } lines)
        {
            foreach (var line in lines)
            {
                Console.Error.WriteLine(line);
            }

            return false;
        }
    }

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
                    lines.AddRange(invalid.Failures);
                    break;

                // A value the binder cannot convert: its message names the key, the value and the type.
                case InvalidOperationException binder
                    when binder.Message.StartsWith(ConversionFailure, StringComparison.Ordinal):
                    lines.Add(binder.Message);
                    break;

                default:
                    return [];
            }
        }

        return lines.Select(l => l.ReplaceLineEndings(" ").Trim()).Distinct(StringComparer.Ordinal).ToList();
    }

    private static bool IsOwnProcess(IHost host) => string.Equals(
        Assembly.GetEntryAssembly()?.GetName().Name, host.Services.GetService<IHostEnvironment>()?.ApplicationName,
            StringComparison.Ordinal);
}
