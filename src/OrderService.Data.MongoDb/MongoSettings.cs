using System.Globalization;
using Microsoft.Extensions.Options;
using MongoDB.Driver;
using OrderService.Data.Hosting;
using OrderService.Data.Resilience;

namespace OrderService.Data.MongoDb;

/// <summary>The one place where the MongoDB switches become driver settings.</summary>
/// <param name="Client">The client's settings (frozen by the MongoClient that takes them).</param>
/// <param name="DatabaseName">The URI's path, else <see cref="DefaultDatabase"/>.</param>
/// <param name="Effective">Each switch's value in force and where it came from, for the start-up log.</param>
public sealed record MongoSettings(
    MongoClientSettings Client, string DatabaseName, IReadOnlyList<EffectiveSetting> Effective)
{
    public const string DefaultDatabase = "orders";
    public const string CollectionName = "orders";
    public const string ApplicationName = "OrderService";

    /// <summary>
    /// The read that explains a write that matched nothing, or finds the order an idempotency key already created,
    /// asks the primary for its newest state.
    /// </summary>
    public MongoCollectionSettings Explaining { get; } = new()
    {
        ReadConcern = ReadConcern.Local,
        ReadPreference = ReadPreference.Primary,
    };

    /// <summary>Whether PerRequest sessions are causal: not with read concern "available", which forbids it.</summary>
    public bool CausalSessions => Client.ReadConcern.Level != ReadConcernLevel.Available;

    public static MongoSettings Build(string connectionString, MongoStoreOptions options, ResilienceOptions resilience)
    {
        var url = ParseUrl(connectionString)
            ?? throw new OptionsValidationException($"ConnectionStrings:{StoreRegistration.ConnectionStringName}",
            typeof(StoreOptions), [$"ConnectionStrings:{StoreRegistration.ConnectionStringName} is not {UriForm}."]);

        var client = MongoClientSettings.FromUrl(url);
        var effective = new List<EffectiveSetting>();
        var key = MongoStoreOptions.SectionName;

        var w = Record(effective, "w", options.W is { } wKey ? ParseW(wKey) : null, $"{key}:W", url.W, "w",
            "unset: the server's default write concern");
        var journal = Record(effective, "journal", options.Journal, $"{key}:Journal", url.Journal, "journal",
            "unset: the server's default");
        var wtimeout = Record(effective, "wtimeout",
            options.WTimeoutMilliseconds is { } ms ? TimeSpan.FromMilliseconds(ms) : (TimeSpan?)null,
            $"{key}:WTimeoutMilliseconds", url.WTimeout, "wtimeoutMS", "unset: wait as long as it takes");
        client.WriteConcern = new WriteConcern(w, wtimeout, fsync: null, journal: journal);

        var readConcern = Record(effective, "readConcern",
            options.ReadConcern is { } level ? Enum.Parse<ReadConcernLevel>(level.ToString()) : null,
            $"{key}:ReadConcern", url.ReadConcernLevel, "readConcernLevel", "unset: the server's default (local)");
        client.ReadConcern = readConcern is { } concernLevel ? new ReadConcern(concernLevel) : ReadConcern.Default;

        var readPreference = Record(effective, "readPreference",
            options.ReadPreference is { } mode ? new ReadPreference(mode) : null, $"{key}:ReadPreference",
            url.ReadPreference, "readPreference", "unset: primary");
        client.ReadPreference = readPreference ?? ReadPreference.Primary;

        var bound = TimeSpan.FromSeconds(resilience.AttemptTimeoutSeconds);
        client.ServerSelectionTimeout = Bound(effective, "serverSelectionTimeout", url.ServerSelectionTimeout, bound);
        client.ConnectTimeout = Bound(effective, "connectTimeout", url.ConnectTimeout, bound);
        client.SocketTimeout = Bound(effective, "socketTimeout",
            url.SocketTimeout == TimeSpan.Zero ? Timeout.InfiniteTimeSpan : url.SocketTimeout, bound);
        client.WaitQueueTimeout = Bound(effective, "waitQueueTimeout", url.WaitQueueTimeout, bound);

        effective.Add(new("retryWrites", client.RetryWrites ? "true" : "false",
            url.RetryWrites is null ? "the driver's default" : "connection string (retryWrites)"));
        client.ApplicationName = url.ApplicationName ?? ApplicationName;
        return new MongoSettings(client, string.IsNullOrEmpty(url.DatabaseName) ? DefaultDatabase : url.DatabaseName,
            effective);
    }

    public string Describe() =>
        $"database {DatabaseName}; " + string.Join("; ", Effective.Select(s => $"{s.Name}={s.Value} ({s.Source})"));

    /// <summary>A <see cref="MongoStoreOptions.W"/> its annotation let through: majority or a count.</summary>
    private static WriteConcern.WValue ParseW(string value) =>
        int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var members)
            ? new WriteConcern.WCount(members)
            : WriteConcern.WMode.Majority;

    /// <summary>What a connection string must be, in the start-up errors.</summary>
    internal const string UriForm = "a MongoDB URI (mongodb://host/database?options)";

    /// <summary>
    /// The connection string as the driver reads it, or null; its error quotes the password, so never shown.
    /// </summary>
    internal static MongoUrl? ParseUrl(string connectionString)
    {
        try
        {
            return MongoUrl.Create(connectionString);
        }
        catch (Exception invalid) when (invalid is MongoConfigurationException or FormatException or ArgumentException)
        {
            return null;
        }
    }

    private static T Record<T>(List<EffectiveSetting> effective, string name, T fromKey, string keyName, T fromUri,
        string uriOption, string unset)
    {
        if (fromKey is not null)
        {
            effective.Add(new(name, Text(fromKey), keyName
                + (fromUri is null ? "" : $", over the connection string's {uriOption}={Text(fromUri)}")));
            return fromKey;
        }

        effective.Add(fromUri is not null ? new(name, Text(fromUri), $"connection string ({uriOption})")
            : new(name, "-", unset));
        return fromUri;
    }

    private static TimeSpan Bound(List<EffectiveSetting> effective, string name, TimeSpan configured, TimeSpan bound)
    {
        var bounded = configured == Timeout.InfiniteTimeSpan || configured > bound;
        effective.Add(new(name, Text(bounded ? bound : configured), bounded
            ? $"bounded by Resilience:AttemptTimeoutSeconds; the connection string or driver default was " +
                $"{Text(configured)}"
            : "connection string"));
        return bounded ? bound : configured;
    }

    private static string Text(object? value) => value switch
    {
        null => "-",
        bool b => b ? "true" : "false",
        TimeSpan t when t == Timeout.InfiniteTimeSpan => "infinite",
        TimeSpan t => t.TotalMilliseconds.ToString("0", CultureInfo.InvariantCulture) + " ms",
        ReadConcernLevel level => level.ToString().ToLowerInvariant(),
        ReadPreference preference => char.ToLowerInvariant(preference.ReadPreferenceMode.ToString()[0])
            + preference.ReadPreferenceMode.ToString()[1..],
        _ => value.ToString() ?? "-",
    };
}

public sealed record EffectiveSetting(string Name, string Value, string Source);
