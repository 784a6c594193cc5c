namespace OrderService.Load.Shootout;

public enum StoreKind
{
    Sqlite,
    PostgreSql,
    SqlServer,
    MongoDb,

    /// <summary>The PostgreSQL store with Store:PostgreSql:Distribution=Citus, on a Citus coordinator (--citus).</summary>
    Citus,
}

/// <summary>
/// One column of the shoot-out: a store, a layout and the settings that make it a variant. A variant
/// is configuration only: <see cref="Settings"/> become the service's environment variables (and
/// the raw baseline's configuration); the harness has no code branch per variant. <see cref="Server"/> names a
/// server-side setting the variant needs (MongoDB's journalCommitInterval is a mongod setting, not a client one):
/// the store target picks the server that has it, and checks it.
/// </summary>
public sealed record Variant(
    StoreKind Store,
    string Layout,
    string Name,
    string SeedAnalogue,
    string Description,
    bool Durable,
    string Durability,
    IReadOnlyDictionary<string, string> Settings,
    string? Server = null)
{
    /// <summary>"sqlite/relational/v1-shared-uow": unique in a report.</summary>
    public string Key => $"{StoreName(Store)}/{Layout.ToLowerInvariant()}/{Name}";

    public bool Matches(string selector) =>
        selector.Equals("all", StringComparison.OrdinalIgnoreCase)
        || selector.Equals(Name, StringComparison.OrdinalIgnoreCase)
        || selector.Equals($"{Layout}/{Name}", StringComparison.OrdinalIgnoreCase)
        || selector.Equals(Key, StringComparison.OrdinalIgnoreCase);

    public static string StoreName(StoreKind store) => store switch
    {
        StoreKind.Sqlite => "sqlite",
        StoreKind.PostgreSql => "postgres",
        StoreKind.SqlServer => "sqlserver",
        StoreKind.MongoDb => "mongodb",
        StoreKind.Citus => "citus",
        _ => throw new ArgumentOutOfRangeException(nameof(store), store, null),
    };

    public static StoreKind ParseStore(string name) => name.Trim().ToLowerInvariant() switch
    {
        "sqlite" => StoreKind.Sqlite,
        "postgres" or "postgresql" or "pg" => StoreKind.PostgreSql,
        "sqlserver" or "mssql" => StoreKind.SqlServer,
        "mongodb" or "mongo" => StoreKind.MongoDb,
        "citus" => StoreKind.Citus,
        _ => throw new ArgumentException($"Unknown store '{name}': use sqlite, postgres, sqlserver, mongodb or citus."),
    };

    /// <summary>The provider's value for Store:Provider.</summary>
    public string Provider => Store switch
    {
        StoreKind.Sqlite => "Sqlite",
        StoreKind.PostgreSql or StoreKind.Citus => "PostgreSql",
        StoreKind.MongoDb => "MongoDb",
        _ => "SqlServer",
    };

    /// <summary>Everything the store needs as configuration keys (Store:..., ConnectionStrings:Orders).</summary>
    public Dictionary<string, string> Configuration(string connectionString)
    {
        var configuration = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = Provider,
            ["Store:Layout"] = Layout,
            ["ConnectionStrings:Orders"] = connectionString,
        };
        foreach (var (key, value) in Settings)
        {
            configuration[key] = value;
        }

        return configuration;
    }

    /// <summary>Suffix of a variant's twin that exports OpenTelemetry (<see cref="WithOtlpExport"/>).</summary>
    public const string OtlpSuffix = "+otlp";

    /// <summary>The same variant with OpenTelemetry exporting every signal over OTLP/HTTP to <paramref name="endpoint"/>.</summary>
    public Variant WithOtlpExport(string endpoint) => this with
    {
        Name = Name + OtlpSuffix,
        Description = Description + "; OpenTelemetry on, exporting to a local OTLP sink",
        Settings = new Dictionary<string, string>(Settings, StringComparer.OrdinalIgnoreCase)
        {
            ["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint,
            ["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf",

            // Metrics every 10 s rather than the default 60 s, so a run of seconds exports during the load.
            ["OTEL_METRIC_EXPORT_INTERVAL"] = "10000",
        },
    };

    /// <summary>The same configuration as environment variables (':' becomes '__').</summary>
    public Dictionary<string, string> EnvironmentVariables(string connectionString) =>
        Configuration(connectionString).ToDictionary(p => p.Key.Replace(":", "__", StringComparison.Ordinal), p => p.Value);
}
