using System.Globalization;

namespace OrderService.Data.Configuration;

/// <summary>The one wording of a bad setting, so every options class reads alike, one line per error.</summary>
public static class SettingError
{
    /// <summary>A value that was given but is not allowed.</summary>
    public static string Invalid(string key, object? value, string allowed) =>
        $"Invalid setting {key} = {Show(key, value)}; allowed: {allowed}.";

    /// <summary>A setting that must be given in this configuration and was not.</summary>
    public static string Missing(string key, string allowed) =>
        $"Missing setting {key}; allowed: {allowed}.";

    /// <summary>The value as typed, quoted, or hidden when it may hold a credential: this line is logged.</summary>
    public static string Show(string key, object? value)
    {
        if (MayHoldSecret(key))
        {
            return "(value hidden: it may hold a credential)";
        }

        var text = value switch
        {
            null => null,
            IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
            _ => value.ToString(),
        };
        return text is null ? "(not set)" : $"\"{OneLine(text)}\"";
    }

    /// <summary>Keeps a message on one line whatever the value held (a pasted value can carry a newline).</summary>
    public static string OneLine(string text) => text.ReplaceLineEndings(" ").Trim();

    private static bool MayHoldSecret(string key)
    {
        var last = key[(key.LastIndexOf(':') + 1)..];
        return key.StartsWith("ConnectionStrings:", StringComparison.OrdinalIgnoreCase)
            || last.Contains("ConnectionString", StringComparison.OrdinalIgnoreCase)
            || last.Contains("Password", StringComparison.OrdinalIgnoreCase)
            || last.Contains("Secret", StringComparison.OrdinalIgnoreCase)
            || last.Contains("Token", StringComparison.OrdinalIgnoreCase)
            || last.EndsWith("Key", StringComparison.OrdinalIgnoreCase);
    }
}
