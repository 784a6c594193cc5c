using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using MongoDB.Driver;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.MongoDb;
using OrderService.Data.Resilience;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Configuration;

/// <summary>What the MongoDB store says when it is built: the switches in force with their sources, and the general switches that mean nothing on MongoDB.</summary>
public sealed class MongoStartupTests
{
    [Fact]
    public async Task Building_the_store_logs_every_switch_with_its_source()
    {
        var log = new RecordingLoggerProvider(static category => category.Contains("MongoStores", StringComparison.Ordinal));
        var options = new StoreOptions { Provider = StoreProvider.MongoDb };

        await using (Create(options, "mongodb://127.0.0.1:1/shop?readConcernLevel=local", log,
            new() { W = "1", Journal = false }))
        {
        }

        var line = log.Lines.Where(l => l.Level == LogLevel.Information).ShouldHaveSingleItem().Text;
        line.ShouldContain("database shop");
        line.ShouldContain("w=1 (Store:MongoDb:W)");
        line.ShouldContain("journal=false (Store:MongoDb:Journal)");
        line.ShouldContain("readConcern=local (connection string (readConcernLevel))");
        line.ShouldContain("unit of work PerRequest (one causally consistent session per request)");
        log.Lines.ShouldNotContain(l => l.Level == LogLevel.Warning);
    }

    [Fact]
    public async Task With_read_concern_available_the_request_session_is_not_causal_and_the_log_says_why()
    {
        var log = new RecordingLoggerProvider(static category => category.Contains("MongoStores", StringComparison.Ordinal));
        var options = new StoreOptions { Provider = StoreProvider.MongoDb };

        await using (Create(options, "mongodb://127.0.0.1:1", log, new() { ReadConcern = MongoReadConcern.Available }))
        {
        }

        log.Lines.Single(l => l.Level == LogLevel.Information).Text
            .ShouldContain("unit of work PerRequest (one session per request, not causally consistent: MongoDB does not allow it with read concern available)");
    }

    [Fact]
    public async Task Isolation_switches_that_mean_nothing_on_MongoDB_are_said_at_start_up()
    {
        var log = new RecordingLoggerProvider(static category => category.Contains("MongoStores", StringComparison.Ordinal));
        var options = new StoreOptions { Provider = StoreProvider.MongoDb, WriteIsolation = WriteIsolation.Serializable, ReadIsolation = ReadIsolation.ReadUncommitted };

        await using (Create(options, "mongodb://127.0.0.1:1", log))
        {
        }

        var warnings = log.Lines.Where(l => l.Level == LogLevel.Warning).Select(l => l.Text).ToList();
        warnings.Count.ShouldBe(2);
        warnings.ShouldContain(w => w.StartsWith("Store:WriteIsolation=Serializable changes nothing on MongoDB", StringComparison.Ordinal));
        warnings.ShouldContain(w => w.StartsWith("Store:ReadIsolation=ReadUncommitted changes nothing on MongoDB", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("1", "Majority", null, "ReadConcern=Majority without W=majority")]
    [InlineData(null, "Majority", null, "ReadConcern=Majority without W=majority")] // unset w: the server's default, which the client cannot vouch for
    [InlineData("majority", "Majority", null, null)]
    [InlineData("1", "Local", null, null)]
    [InlineData("1", null, "SecondaryPreferred", "ReadPreference=SecondaryPreferred")]
    public void Read_settings_that_can_miss_a_clients_own_write_are_said_at_start_up(string? w, string? readConcern, string? readPreference, string? warning)
    {
        var settings = MongoSettings.Build("mongodb://127.0.0.1:1", new MongoStoreOptions
        {
            W = w,
            ReadConcern = readConcern is null ? null : Enum.Parse<MongoReadConcern>(readConcern),
            ReadPreference = readPreference is null ? null : Enum.Parse<ReadPreferenceMode>(readPreference),
        }, new ResilienceOptions());

        var warnings = MongoStores.StaleReads(settings).ToList();

        if (warning is null)
        {
            warnings.ShouldBeEmpty();
        }
        else
        {
            warnings.ShouldHaveSingleItem().ShouldContain(warning);
        }
    }

    [Fact]
    public void Majority_from_the_connection_string_counts_too() =>
        MongoStores.StaleReads(MongoSettings.Build("mongodb://127.0.0.1:1/?w=majority&readConcernLevel=majority", new MongoStoreOptions(), new ResilienceOptions()))
            .ShouldBeEmpty();

    private static StoreBundle Create(StoreOptions options, string connectionString, RecordingLoggerProvider log,
        MongoStoreOptions? mongo = null)
    {
        var services = new ServiceCollection()
            .AddLogging(logging => logging.AddProvider(log).SetMinimumLevel(LogLevel.Information))
            .AddSingleton(Options.Create(new ResilienceOptions()))
            .AddSingleton(Options.Create(mongo ?? new MongoStoreOptions()))
            .BuildServiceProvider();
        return MongoStores.Create(new StoreContext(options, connectionString, services));
    }
}
