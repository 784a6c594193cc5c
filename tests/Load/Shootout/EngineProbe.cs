using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.Data.SqlClient;
using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Load.Shootout;

/// <summary>
/// What really answers behind a SQL Server or MongoDB connection string: the report names it ("SQL Server protocol on
/// Babelfish 4.3"), and the service gets the timeouts that engine needs, as the integration fixtures give them.
/// </summary>
/// <param name="Label">The honest name for the report: the protocol, and the engine that speaks it.</param>
/// <param name="Version">The engine's own version string, as it reports it.</param>
/// <param name="Settings">Service configuration this engine needs (Resilience and store timeouts), before the variant's own.</param>
public sealed record EngineIdentity(string Label, string Version, IReadOnlyDictionary<string, string> Settings)
{
    /// <summary>"KEY=VALUE, ..." for the report's conditions, or "none".</summary>
    public string DescribeSettings() =>
        Settings.Count == 0 ? "none (the service's defaults)" : string.Join(", ", Settings.Select(s => $"{s.Key}={s.Value}"));
}

public static partial class EngineProbe
{
    /// <summary>
    /// Babelfish parses every statement shape again on each new session (ANTLR, seconds per shape on a busy machine),
    /// and neither a client's cancel nor statement_timeout stops a parse. The command time-out must outlast the first
    /// parses of a whole pool of new sessions at full load, which is what a restart brings: with 20 s, a crash run at
    /// 100 copies timed its new sessions out mid-parse, the pool replaced them while the abandoned ones parsed on, and
    /// the engine stayed at 2 wf/s with about 60 busy backends; with 60 s the 16 new sessions parsed once and the run
    /// was back at full speed in about a minute. The values docs/stores/babelfish.md gives for Babelfish.
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> BabelfishSettings = new Dictionary<string, string>
    {
        ["Store:CommandTimeoutSeconds"] = "60",
        ["Resilience:AttemptTimeoutSeconds"] = "75",
        ["Resilience:TotalTimeoutSeconds"] = "90",
    };

    /// <summary>
    /// FerretDB turns every command into SQL on its PostgreSQL (DocumentDB): under 100 copies on a busy 2-core box a
    /// journaled write often waits more than the default 2 s attempt for a PostgreSQL connection or its WAL flush. The
    /// longer attempt keeps a slow answer from becoming a 503 and a retry that adds load; the write-concern timeout
    /// (majority) stays below the attempt, as the MongoDB options require.
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> FerretDbSettings = new Dictionary<string, string>
    {
        ["Resilience:AttemptTimeoutSeconds"] = "10",
        ["Resilience:TotalTimeoutSeconds"] = "30",
    };

    public static async Task<EngineIdentity> SqlServerAsync(string connectionString, CancellationToken cancellationToken)
    {
        var builder = new SqlConnectionStringBuilder(connectionString) { Pooling = false, ConnectTimeout = 30 };
        await using var connection = new SqlConnection(builder.ConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);

        // SERVERPROPERTY('babelfish') is 1 on Babelfish and NULL on SQL Server; BabelfishVersion is "4.3.0".
        await using var command = new SqlCommand(
            "SELECT CAST(SERVERPROPERTY('babelfish') AS int), CAST(SERVERPROPERTY('BabelfishVersion') AS nvarchar(64)), @@VERSION, CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(64));",
            connection)
        { CommandTimeout = 60 };
        await using var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        await reader.ReadAsync(cancellationToken).ConfigureAwait(false);
        var babelfish = !reader.IsDBNull(0) && reader.GetInt32(0) == 1;
        var version = reader.IsDBNull(2) ? "" : reader.GetString(2);
        if (babelfish || version.Contains("Babelfish", StringComparison.OrdinalIgnoreCase))
        {
            var babelfishVersion = reader.IsDBNull(1) ? "" : reader.GetString(1);
            var postgres = PostgresVersion().Match(version);
            var label = $"SQL Server protocol on Babelfish {MajorMinor(babelfishVersion)}" + (postgres.Success ? $" (PostgreSQL {postgres.Groups[1].Value})" : "");
            return new EngineIdentity(label, OneLine(version), BabelfishSettings);
        }

        var product = reader.IsDBNull(3) ? "" : reader.GetString(3);
        return new EngineIdentity($"SQL Server {product}".Trim(), OneLine(version), new Dictionary<string, string>());
    }

    public static async Task<EngineIdentity> MongoAsync(string uri, CancellationToken cancellationToken)
    {
        var settings = MongoClientSettings.FromConnectionString(uri);
        settings.ServerSelectionTimeout = TimeSpan.FromSeconds(30);
        using var client = new MongoClient(settings);
        var buildInfo = await client.GetDatabase("admin")
            .RunCommandAsync<BsonDocument>(new BsonDocument("buildInfo", 1), cancellationToken: cancellationToken)
            .ConfigureAwait(false);
        var version = buildInfo.GetValue("version", "").ToString() ?? "";

        // FerretDB answers buildInfo with a "ferretdb" document (its own version and its backend), beside the MongoDB
        // version it imitates.
        if (buildInfo.TryGetValue("ferretdb", out var ferret) && ferret is BsonDocument ferretDocument)
        {
            var ferretVersion = ferretDocument.GetValue("version", "").ToString()?.TrimStart('v') ?? "";
            // FerretDB 2 runs only on PostgreSQL with the DocumentDB extension (1.x had its own SQL backends).
            var backend = ferretVersion.StartsWith('1') ? "PostgreSQL" : "DocumentDB";
            return new EngineIdentity($"MongoDB protocol on FerretDB {MajorMinor(ferretVersion)} / {backend}",
                $"FerretDB {ferretVersion} (reports MongoDB {version}); {ferretDocument}", FerretDbSettings);
        }

        return new EngineIdentity($"MongoDB {version}", $"MongoDB {version}", new Dictionary<string, string>());
    }

    private static string MajorMinor(string version)
    {
        var parts = version.Split('.', '-');
        return parts.Length >= 2 ? $"{parts[0]}.{parts[1]}" : version;
    }

    private static string OneLine(string text) => Regex.Replace(text, @"\s+", " ").Trim();

    [GeneratedRegex(@"PostgreSQL (\d+(?:\.\d+)?)", RegexOptions.CultureInvariant)]
    private static partial Regex PostgresVersion();

    internal static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
