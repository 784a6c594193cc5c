using System.Reflection;

namespace OrderService.Deployment.Tests;

/// <summary>
/// The configuration keys the app reads, found by reflection so a new options class or property needs no edit
/// here: every class with a <c>public const string SectionName</c> (the options convention of this code base) gives
/// its section plus each settable property, nested options classes and lists recursively (a list's index, as in
/// <c>ValidAudiences:0</c>, is any number: written <c>*</c> here); every <c>const string
/// *ConnectionStringName</c> gives a <c>ConnectionStrings</c> key. Plus the few keys the host and the
/// OpenTelemetry SDK read themselves, listed below.
/// </summary>
internal static class AppConfiguration
{
    /// <summary>Read by ASP.NET Core hosting and the OpenTelemetry SDK (its standard environment variables), not by an options class of ours.</summary>
    private static readonly string[] PlatformKeys =
    [
        "ASPNETCORE_URLS", "ASPNETCORE_HTTP_PORTS", "ASPNETCORE_HTTPS_PORTS", "ASPNETCORE_ENVIRONMENT", "DOTNET_ENVIRONMENT",
        "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TIMEOUT",
        "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES", "OTEL_SDK_DISABLED", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG",
        "OTEL_METRIC_EXPORT_INTERVAL", "OTEL_LOGS_EXPORTER", "OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER",
    ];

    /// <summary>Sections whose keys are open-ended by design (log levels per category).</summary>
    private static readonly string[] OpenSections = ["Logging"];

    private const string ListIndex = "*";

    private static readonly Lazy<HashSet<string>> Keys = new(Discover);

    public static IReadOnlyCollection<string> KnownKeys => Keys.Value;

    /// <summary>Every key of one section, e.g. <c>Resilience</c>, in configuration form (<c>Resilience:MaxRetries</c>).</summary>
    public static IEnumerable<string> KeysOf(string section) =>
        Keys.Value.Where(k => k.StartsWith(section + ":", StringComparison.OrdinalIgnoreCase)).Order(StringComparer.Ordinal);

    /// <summary>Whether an environment variable (':' written as '__') names a key the app reads. Configuration keys ignore case.</summary>
    public static bool IsKnown(string environmentVariable)
    {
        var key = environmentVariable.Replace("__", ":", StringComparison.Ordinal);
        var pattern = string.Join(':', key.Split(':').Select(part => part.Length > 0 && part.All(char.IsAsciiDigit) ? ListIndex : part));
        return Keys.Value.Contains(pattern) || OpenSections.Any(s => key.StartsWith(s + ":", StringComparison.OrdinalIgnoreCase));
    }

    private static HashSet<string> Discover()
    {
        var keys = new HashSet<string>(PlatformKeys, StringComparer.OrdinalIgnoreCase);
        foreach (var type in AppAssemblies().SelectMany(a => a.GetTypes()))
        {
            foreach (var field in type.GetFields(BindingFlags.Public | BindingFlags.Static).Where(f => f.IsLiteral && f.FieldType == typeof(string)))
            {
                var value = (string)field.GetRawConstantValue()!;
                if (field.Name == "SectionName")
                {
                    AddProperties(type, value, keys);
                }
                else if (field.Name.EndsWith("ConnectionStringName", StringComparison.Ordinal))
                {
                    keys.Add($"ConnectionStrings:{value}");
                }
            }
        }

        return keys;
    }

    private static void AddProperties(Type type, string prefix, HashSet<string> keys)
    {
        foreach (var property in type.GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.SetMethod?.IsPublic == true))
        {
            AddValue(property.PropertyType, $"{prefix}:{property.Name}", keys);
        }
    }

    private static void AddValue(Type type, string key, HashSet<string> keys)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        if (IsLeaf(type))
        {
            keys.Add(key);
        }
        else if (ElementType(type) is { } element)
        {
            AddValue(element, $"{key}:{ListIndex}", keys);
        }
        else if (type.IsClass)
        {
            AddProperties(type, key, keys);
        }
    }

    /// <summary>The item type of a list or array the configuration binder fills by index (not of a dictionary: none of ours has one).</summary>
    private static Type? ElementType(Type type) =>
        type.IsArray ? type.GetElementType()
        : type.IsGenericType && type.GetGenericTypeDefinition() is var definition
          && (definition == typeof(List<>) || definition == typeof(IList<>) || definition == typeof(IReadOnlyList<>) || definition == typeof(IEnumerable<>))
            ? type.GetGenericArguments()[0]
            : null;

    private static bool IsLeaf(Type type) =>
        type.IsPrimitive || type.IsEnum || type == typeof(string) || type == typeof(decimal) || type == typeof(TimeSpan) || type == typeof(Uri);

    /// <summary>The service and every OrderService.* assembly it references.</summary>
    private static IEnumerable<Assembly> AppAssemblies()
    {
        var app = typeof(Program).Assembly;
        return [app, .. app.GetReferencedAssemblies().Where(a => a.Name!.StartsWith("OrderService", StringComparison.Ordinal)).Select(Assembly.Load)];
    }
}
