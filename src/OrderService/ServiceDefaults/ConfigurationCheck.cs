namespace OrderService.ServiceDefaults;

/// <summary>
/// --check-config: build the host as start-up does, run the same start-up check of every options class, say
/// "configuration valid" or print one line per bad setting, and exit without opening the store or listening. A
/// deployment (or the doc tests, which run every documented service command this way) learns whether its settings
/// would start the service, with nothing to reach.
/// </summary>
public static class ConfigurationCheck
{
    public const string Flag = "--check-config";

    public const string Valid = "configuration valid";

    public static bool IsAsked(string[] args) => args.Contains(Flag, StringComparer.Ordinal);

    /// <summary>
    /// The arguments without the switch: the command-line configuration provider would otherwise read the next
    /// argument as its value, and swallow a --Section:Key that follows it.
    /// </summary>
    public static string[] WithoutFlag(string[] args) => [.. args.Where(a => !string.Equals(a, Flag, StringComparison.Ordinal))];
}
