using System.Globalization;
using System.Text;
using Microsoft.Extensions.Configuration;

namespace OrderService.Tools;

public static partial class ConfigurationReference
{
    /// <summary>The line of the page that carries its date, which <see cref="DateOf"/> reads back.</summary>
    private const string DatePrefix = "Generated from the code on ";

    /// <summary>The page: a header that says it is generated, when and how, then one table per section.</summary>
    public static string Render(IConfiguration defaults, DateOnly date)
    {
        var page = new StringBuilder();
        page.Append("# Configuration reference\n\n");
        page.Append(CultureInfo.InvariantCulture, $"{DatePrefix}{date:yyyy-MM-dd}: the options classes, their validation rules and appsettings.json. Do not edit it by hand;\n");
        page.Append(CultureInfo.InvariantCulture, $"regenerate it with `{RegenerateCommand}`\n");
        page.Append("(a test fails while the page and the code differ).\n\n");
        page.Append("""
            Every key can be set in `appsettings.json`, on the command line (`--Store:Provider=PostgreSql`) or as an environment
            variable (`Store__Provider=PostgreSql`: `:` becomes `__`). A `*` in a key is a list index (`:0`, `:1`, ...).
            **default** is what the service starts with when the key is not set: the options class's value, or
            `appsettings.json`'s where it sets one. **allowed** is what the start-up check accepts: a value outside it stops
            start-up before anything listens, with one line on stderr per bad setting (the key, the value where it
            does not convert, and what is allowed) and exit code 1. `--check-config` on the service's command line
            runs that same check and exits without opening the store or listening: `configuration valid` and exit
            code 0, or the lines and exit code 1.

            """.Replace("\r\n", "\n", StringComparison.Ordinal));
        var sections = Sections(defaults);
        foreach (var section in sections)
        {
            // A section inside another (Store:Sqlite in Store) is a subheading, whichever class declares it.
            var depth = sections.Any(s => section.Path.StartsWith(s.Path + ":", StringComparison.Ordinal))
                ? "###" : "##";
            page.Append(CultureInfo.InvariantCulture, $"\n{depth} {section.Path}\n\n");
            if (section.Meaning is not null)
            {
                page.Append(section.Meaning).Append("\n\n");
            }

            page.Append("| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n");
            foreach (var setting in section.Settings)
            {
                page.Append(CultureInfo.InvariantCulture,
                    $"| `{setting.Key}` | {setting.Type} | {Code(setting.Default)} | {Cell(setting.Allowed)} | {Cell(setting.Meaning ?? Undocumented)} |\n");
            }
        }

        return page.ToString();
    }

    /// <summary>What a setting without a [Description] shows; the reference test names each one.</summary>
    public const string Undocumented = "(no [Description] on the property)";

    /// <summary>The date in a rendered page's header, so the test renders the same header; null when the header is not there.</summary>
    public static DateOnly? DateOf(string page)
    {
        var line = page.Split('\n').FirstOrDefault(l => l.StartsWith(DatePrefix, StringComparison.Ordinal));
        return line is not null && DateOnly.TryParseExact(line.AsSpan(DatePrefix.Length, 10), "yyyy-MM-dd", CultureInfo.InvariantCulture, DateTimeStyles.None, out var date)
            ? date
            : null;
    }

    private static string Code(string value) => value is "unset" or "none" ? value : $"`{Cell(value)}`";

    private static string Cell(string text) => OptionsReference.OneLine(text).Replace("|", "\\|", StringComparison.Ordinal);
}
