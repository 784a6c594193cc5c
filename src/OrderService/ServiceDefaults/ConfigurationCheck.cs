namespace OrderService.ServiceDefaults;

/// <summary>
/// --check-config: runs the start-up check of every options class and exits, without opening the store.
/// </summary>
public static class ConfigurationCheck
{
    public const string Flag = "--check-config";

    public const string Valid = "configuration valid";

    public static bool IsAsked(string[] args) => args.Contains(Flag, StringComparer.Ordinal);

    /// <summary>The arguments without the switch, which would swallow a following --Section:Key as its value.</summary>
    public static string[] WithoutFlag(string[] args) =>
        [.. args.Where(a => !string.Equals(a, Flag, StringComparison.Ordinal))];
}
