using System.Reflection;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.ServiceDefaults;

namespace OrderService.Tools;

/// <summary>
/// docs/configuration.md, rendered from the code: every options class of the service (a class with a
/// <c>public const string SectionName</c>, the convention here) through <see cref="OptionsReference"/>, plus the few
/// keys the host, the store registration and the OpenTelemetry SDK read outside an options class, listed in
/// <see cref="HostSettings"/>. A new property of an options class, with its [Description] and its rules, appears on
/// the next regeneration with nothing else to edit; a test fails until the page is regenerated.
/// </summary>
public static partial class ConfigurationReference
{
    public const string PagePath = "docs/configuration.md";
    public const string RegenerateCommand = $"dotnet run --project tools/ConfigurationReference -- {PagePath}";

    /// <summary>Writes the page to <paramref name="path"/> with today's date, and returns its full path.</summary>
    public static string Write(string path)
    {
        // appsettings.json as the service reads it at start-up (the build copies it next to the service's assembly, and here).
        var defaults = new ConfigurationBuilder().AddJsonFile(Path.Combine(AppContext.BaseDirectory, "appsettings.json"), optional: false).Build();
        var full = Path.GetFullPath(path);
        File.WriteAllText(full, Render(defaults, DateOnly.FromDateTime(DateTime.UtcNow)));
        return full;
    }

    /// <summary>Every section of the service, in key order, nested sections inside their parent.</summary>
    public static IReadOnlyList<SectionReference> Sections(IConfiguration defaults) =>
        TopSections().SelectMany(t => OptionsReference.Of(t.Type, t.Section, defaults))
            .Append(new SectionReference(HostSection, HostMeaning, HostSettings(defaults)))
            .ToList();

    /// <summary>
    /// The options classes that are a section of their own, not one nested in another (Store:IdempotencyKeys is in
    /// Store).
    /// </summary>
    private static List<(Type Type, string Section)> TopSections()
    {
        var types = OptionsClasses().ToList();
        var nested = types.SelectMany(t => OptionsReference.NestedSections(t.Type)).ToHashSet();
        return types.Where(t => !nested.Contains(t.Type))
            .OrderBy(t => Array.FindIndex(LeadingSections,
                    l => t.Section == l || t.Section.StartsWith(l + ":", StringComparison.Ordinal)) is var at and >= 0
                ? at : LeadingSections.Length)
            .ThenBy(t => t.Section, StringComparer.Ordinal).ToList();
    }

    /// <summary>The sections a reader needs first; the others follow in key order.</summary>
    private static readonly string[] LeadingSections = [StoreOptions.SectionName, Data.Resilience.ResilienceOptions.SectionName];

    public const string HostSection = "Host, connection string and telemetry";

    private const string HostMeaning = "Keys read outside an options class: by the store registration, by ASP.NET Core hosting and by the OpenTelemetry SDK.";

    /// <summary>The keys no options class declares; each row's values come from the constants the code reads.</summary>
    private static List<SettingReference> HostSettings(IConfiguration defaults) =>
    [
        new($"ConnectionStrings:{StoreRegistration.ConnectionStringName}", "string", StoreRegistration.DefaultSqliteConnectionString,
            ConnectionStringValidator.Rule, "The store's connection string in its driver's syntax (the default serves SQLite only); it may hold a password, so no message ever prints it. "
                + "On PostgreSQL the store appends its session settings to `Options`; it adds plan_cache_mode (stores/postgresql.md#prepared-statements-keep-one-plan) only when `Options` names none."),
        new(Telemetry.EndpointKey, "URI", "unset", "an OTLP receiver's URL",
            "Set: traces, metrics and logs are exported over OTLP. Unset: no OpenTelemetry provider is created and nothing listens."),
        new(Telemetry.ServiceNameKey, "string", Telemetry.DefaultServiceName, "any text", "The service.name of everything exported."),
        new("OTEL_EXPORTER_OTLP_PROTOCOL", "string", "grpc", "grpc, http/protobuf", "The OTLP transport, read by the OpenTelemetry SDK (as are its other standard OTEL_* variables)."),
        new("OTEL_EXPORTER_OTLP_HEADERS", "string", "unset", "key=value pairs, comma-separated", "Headers sent with every export (an API key, say), read by the OpenTelemetry SDK."),
        new("ASPNETCORE_URLS", "string", "http://localhost:5000", "URLs separated by ;", "The addresses Kestrel listens on (the default is ASP.NET Core's); --urls on the command line."),
        new("AllowedHosts", "string", defaults["AllowedHosts"] ?? "unset", "host names separated by ;, * for any", "The Host headers ASP.NET Core accepts."),
        new($"Logging:LogLevel:{OptionsReference.ListIndex}", "enum", LogLevels(defaults), string.Join(", ", Enum.GetNames<LogLevel>()),
            "The least severe log level written, per category (the * is a category such as Npgsql, or Default)."),
    ];

    private static string LogLevels(IConfiguration defaults) =>
        string.Join(", ", defaults.GetSection("Logging:LogLevel").GetChildren().Select(c => $"{c.Key}={c.Value}"));

    private static IEnumerable<(Type Type, string Section)> OptionsClasses()
    {
        var service = typeof(Telemetry).Assembly;
        var assemblies = service.GetReferencedAssemblies().Where(a => a.Name!.StartsWith("OrderService", StringComparison.Ordinal))
            .Select(Assembly.Load).Prepend(service);
        foreach (var type in assemblies.SelectMany(a => a.GetTypes()))
        {
            if (type.GetField("SectionName", BindingFlags.Public | BindingFlags.Static) is { IsLiteral: true } field && field.FieldType == typeof(string))
            {
                yield return (type, (string)field.GetRawConstantValue()!);
            }
        }
    }
}
