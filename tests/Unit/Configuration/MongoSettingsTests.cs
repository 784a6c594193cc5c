using Microsoft.Extensions.Options;
using MongoDB.Driver;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Resilience;
using OrderService.Unit.Tests.Commands;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Configuration;

/// <summary>
/// The client and collection settings each configuration builds (nothing connects): write concern, journal,
/// wtimeout, read concern, read preference, the timeouts, and which source wins when a key and the URI disagree.
/// </summary>
public sealed class MongoSettingsTests
{
    private const string Uri = "mongodb://db.invalid:27017";

    [Fact]
    public void With_nothing_set_the_servers_defaults_apply_and_the_timeouts_are_bounded_by_the_attempt()
    {
        var settings = Build(Uri, new MongoStoreOptions());

        settings.DatabaseName.ShouldBe("orders");
        settings.Client.WriteConcern.ShouldBe(WriteConcern.Acknowledged); // no w sent: the server's default (majority on a 5.0+ replica set)
        settings.Client.ReadConcern.ShouldBe(ReadConcern.Default);
        settings.Client.ReadPreference.ShouldBe(ReadPreference.Primary);
        settings.Client.RetryWrites.ShouldBeTrue();
        settings.Client.ApplicationName.ShouldBe("OrderService");
        AllTimeouts(settings.Client).ShouldAllBe(t => t == TimeSpan.FromSeconds(2)); // the driver's own: 30 s, 30 s, infinite, 2 min
    }

    [Theory]
    [InlineData("1", false, null, """{ "w" : 1, "j" : false }""")]                                  // the seed's baseline: acknowledged, no journal wait
    [InlineData("1", true, null, """{ "w" : 1, "j" : true }""")]                                    // variant 4: journaled
    [InlineData("majority", true, 1000, """{ "w" : "majority", "wtimeout" : 1000.0, "j" : true }""")] // the majority row
    [InlineData("2", null, 500, """{ "w" : 2, "wtimeout" : 500.0 }""")]
    public void The_write_concern_keys_become_the_write_concern_sent(string w, bool? journal, int? wtimeout, string sent)
    {
        // As the driver puts it into every write command (it sends wtimeout as a double; the server takes any number).
        var settings = Build(Uri, new MongoStoreOptions { W = w, Journal = journal, WTimeoutMilliseconds = wtimeout });

        Rendered.Bson(settings.Client.WriteConcern.ToBsonDocument()).ShouldBe(sent);
    }

    [Theory]
    [InlineData(MongoReadConcern.Local, ReadConcernLevel.Local)]
    [InlineData(MongoReadConcern.Majority, ReadConcernLevel.Majority)]
    [InlineData(MongoReadConcern.Available, ReadConcernLevel.Available)]
    public void The_read_concern_key_sets_the_reads_read_concern(MongoReadConcern key, ReadConcernLevel level)
    {
        var settings = Build(Uri, new MongoStoreOptions { ReadConcern = key });

        settings.Client.ReadConcern.Level.ShouldBe(level);
    }

    [Theory]
    [InlineData(null, true)]
    [InlineData(MongoReadConcern.Local, true)]
    [InlineData(MongoReadConcern.Majority, true)]
    [InlineData(MongoReadConcern.Available, false)]
    public void Request_sessions_are_causally_consistent_except_at_read_concern_available(MongoReadConcern? readConcern, bool causal) =>
        Build(Uri, new MongoStoreOptions { ReadConcern = readConcern }).CausalSessions.ShouldBe(causal);

    [Theory]
    [InlineData(ReadPreferenceMode.Primary, ReadPreferenceMode.Primary)]
    [InlineData(ReadPreferenceMode.PrimaryPreferred, ReadPreferenceMode.PrimaryPreferred)]
    [InlineData(ReadPreferenceMode.Secondary, ReadPreferenceMode.Secondary)]
    [InlineData(ReadPreferenceMode.SecondaryPreferred, ReadPreferenceMode.SecondaryPreferred)]
    [InlineData(ReadPreferenceMode.Nearest, ReadPreferenceMode.Nearest)]
    public void The_read_preference_key_sets_where_reads_go(ReadPreferenceMode key, ReadPreferenceMode mode)
    {
        var settings = Build(Uri, new MongoStoreOptions { ReadPreference = key });

        settings.Client.ReadPreference.ReadPreferenceMode.ShouldBe(mode);
    }

    [Fact]
    public void The_read_that_explains_a_rejected_write_always_asks_the_primary_for_its_newest_state()
    {
        var settings = Build(Uri, new MongoStoreOptions { ReadConcern = MongoReadConcern.Majority, ReadPreference = ReadPreferenceMode.SecondaryPreferred });

        settings.Explaining.ReadConcern.ShouldBe(ReadConcern.Local);
        settings.Explaining.ReadPreference.ShouldBe(ReadPreference.Primary);
    }

    [Fact]
    public void The_connection_string_applies_where_no_key_is_set()
    {
        var settings = Build(
            Uri + "/shop?w=majority&journal=true&wtimeoutMS=1500&readConcernLevel=majority&readPreference=secondaryPreferred&appName=ops",
            new MongoStoreOptions());

        settings.DatabaseName.ShouldBe("shop");
        Rendered.Bson(settings.Client.WriteConcern.ToBsonDocument()).ShouldBe("""{ "w" : "majority", "wtimeout" : 1500.0, "j" : true }""");
        settings.Client.ReadConcern.Level.ShouldBe(ReadConcernLevel.Majority);
        settings.Client.ReadPreference.ReadPreferenceMode.ShouldBe(ReadPreferenceMode.SecondaryPreferred);
        settings.Client.ApplicationName.ShouldBe("ops");
        settings.Effective.Single(s => s.Name == "w").Source.ShouldBe("connection string (w)");
    }

    [Fact]
    public void A_key_wins_over_the_connection_string_setting_by_setting()
    {
        var settings = Build(
            Uri + "/?w=majority&journal=true&wtimeoutMS=1500&readConcernLevel=majority&readPreference=secondaryPreferred",
            new MongoStoreOptions { W = "1", ReadConcern = MongoReadConcern.Local });

        // w and the read concern from the keys; journal, wtimeout and the read preference still from the URI.
        Rendered.Bson(settings.Client.WriteConcern.ToBsonDocument()).ShouldBe("""{ "w" : 1, "wtimeout" : 1500.0, "j" : true }""");
        settings.Client.ReadConcern.Level.ShouldBe(ReadConcernLevel.Local);
        settings.Client.ReadPreference.ReadPreferenceMode.ShouldBe(ReadPreferenceMode.SecondaryPreferred);
        settings.Effective.Single(s => s.Name == "w").Source.ShouldBe("Store:MongoDb:W, over the connection string's w=majority");
        settings.Effective.Single(s => s.Name == "journal").Source.ShouldBe("connection string (journal)");
    }

    [Fact]
    public void Timeouts_the_connection_string_sets_below_the_bound_are_kept_and_longer_ones_bounded()
    {
        var settings = Build(Uri + "/?serverSelectionTimeoutMS=500&connectTimeoutMS=60000&socketTimeoutMS=1000&waitQueueTimeoutMS=90000",
            new MongoStoreOptions(), attemptSeconds: 3);

        settings.Client.ServerSelectionTimeout.ShouldBe(TimeSpan.FromMilliseconds(500));
        settings.Client.ConnectTimeout.ShouldBe(TimeSpan.FromSeconds(3));
        settings.Client.SocketTimeout.ShouldBe(TimeSpan.FromSeconds(1));
        settings.Client.WaitQueueTimeout.ShouldBe(TimeSpan.FromSeconds(3));
    }

    [Fact]
    public void Retryable_writes_stay_on_unless_the_connection_string_turns_them_off()
    {
        Build(Uri, new MongoStoreOptions()).Client.RetryWrites.ShouldBeTrue();
        var off = Build(Uri + "/?retryWrites=false", new MongoStoreOptions());

        off.Client.RetryWrites.ShouldBeFalse();
        off.Effective.Single(s => s.Name == "retryWrites").Source.ShouldBe("connection string (retryWrites)");
    }

    [Fact]
    public void The_start_up_line_names_every_switch_and_its_source()
    {
        var line = Build(Uri + "/?journal=false", new MongoStoreOptions { W = "1" }).Describe();

        line.ShouldBe(
            "database orders; w=1 (Store:MongoDb:W); journal=false (connection string (journal)); wtimeout=- (unset: wait as long as it takes); " +
            "readConcern=- (unset: the server's default (local)); readPreference=- (unset: primary); " +
            "serverSelectionTimeout=2000 ms (bounded by Resilience:AttemptTimeoutSeconds; the connection string or driver default was 30000 ms); " +
            "connectTimeout=2000 ms (bounded by Resilience:AttemptTimeoutSeconds; the connection string or driver default was 30000 ms); " +
            "socketTimeout=2000 ms (bounded by Resilience:AttemptTimeoutSeconds; the connection string or driver default was infinite); " +
            "waitQueueTimeout=2000 ms (bounded by Resilience:AttemptTimeoutSeconds; the connection string or driver default was 120000 ms); " +
            "retryWrites=true (the driver's default)");
    }

    [Theory]
    [InlineData("postgres://x")]
    [InlineData("Data Source=orders.db")]
    public void A_connection_string_that_is_not_a_mongodb_uri_is_refused_naming_its_key(string connectionString)
    {
        var failure = Should.Throw<OptionsValidationException>(() => Build(connectionString, new MongoStoreOptions()));

        failure.Message.ShouldContain("ConnectionStrings:Orders");
    }

    [Theory]
    [InlineData("0")]
    [InlineData("51")]
    [InlineData("all")]
    [InlineData("-1")]
    public void A_w_that_is_not_majority_or_1_to_50_is_refused_naming_the_key(string w) =>
        Validate(new MongoStoreOptions { W = w }).FailureMessage!.ShouldContain("Store:MongoDb:W");

    [Theory]
    [InlineData(0)]
    [InlineData(2000)]
    public void A_wtimeout_outside_1_ms_to_the_attempt_timeout_is_refused_naming_both_keys(int wtimeout)
    {
        var result = Validate(new MongoStoreOptions { WTimeoutMilliseconds = wtimeout });

        result.FailureMessage!.ShouldContain("Store:MongoDb:WTimeoutMilliseconds");
        result.FailureMessage!.ShouldContain("Resilience:AttemptTimeoutSeconds");
    }

    [Fact]
    public void Unknown_enum_values_are_refused_naming_the_key()
    {
        var options = new MongoStoreOptions
        {
            ReadConcern = (MongoReadConcern)9, ReadPreference = (ReadPreferenceMode)9,
        };
        var result = Annotated(options);

        result.FailureMessage!.ShouldContain("Store:MongoDb:ReadConcern");
        result.FailureMessage!.ShouldContain("Store:MongoDb:ReadPreference");
    }

    [Fact]
    public void Every_seed_variant_validates()
    {
        Validate(new MongoStoreOptions { W = "1", Journal = false }).Succeeded.ShouldBeTrue();
        Validate(new MongoStoreOptions { W = "majority", Journal = true, WTimeoutMilliseconds = 1000, ReadConcern = MongoReadConcern.Majority }).Succeeded.ShouldBeTrue();
        Validate(new MongoStoreOptions { W = " Majority " }).Succeeded.ShouldBeTrue();
    }

    private static MongoSettings Build(string uri, MongoStoreOptions options, int attemptSeconds = 2) =>
        MongoSettings.Build(uri, options, new ResilienceOptions { AttemptTimeoutSeconds = attemptSeconds, TotalTimeoutSeconds = 5 });

    private static ValidateOptionsResult Validate(MongoStoreOptions mongo)
    {
        var results = new ValidateOptionsResultBuilder();
        results.AddResult(Annotated(mongo));
        results.AddResult(new MongoStoreOptionsValidator(Options.Create(new ResilienceOptions())).Validate(null, mongo));
        return results.Build();
    }

    private static ValidateOptionsResult Annotated(MongoStoreOptions mongo) =>
        new SectionSettings<MongoStoreOptions>(MongoStoreOptions.SectionName, static (_, _) => { },
            new MongoStoreOptionsAnnotations(), null).Validate(null, mongo);

    private static TimeSpan[] AllTimeouts(MongoClientSettings client) =>
        [client.ServerSelectionTimeout, client.ConnectTimeout, client.SocketTimeout, client.WaitQueueTimeout];
}
