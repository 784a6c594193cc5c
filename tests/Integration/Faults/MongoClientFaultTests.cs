using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// MongoDB.Driver against a closed port: it cannot select a server within the bounded server-selection time-out and
/// throws a TimeoutException, which the store calls transient. Majority, journaled writes: the strictest settings.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoClientFaultTests() : ClientFaultSuite(new Dictionary<string, string?>
{
    ["Store:Provider"] = nameof(StoreProvider.MongoDb),
    [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = MongoDown.ConnectionString(),
    ["Store:MongoDb:W"] = "majority",
    ["Store:MongoDb:Journal"] = "true",
});

/// <summary>A bad MongoDB setting stops start-up with a message that names its key (no server needed).</summary>
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoStartupValidationTests
{
    [Theory]
    [InlineData("Store:MongoDb:W", "0")]
    [InlineData("Store:MongoDb:W", "most")]
    [InlineData("Store:MongoDb:WTimeoutMilliseconds", "60000")]
    [InlineData("Store:MongoDb:ReadConcern", "Linearizable")]
    [InlineData("Store:MongoDb:ReadPreference", "Anywhere")]
    [InlineData("ConnectionStrings:Orders", "Host=127.0.0.1;Database=orders")]
    public async Task A_bad_setting_stops_start_up_naming_its_key(string key, string value)
    {
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = nameof(StoreProvider.MongoDb),
            [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = MongoDown.ConnectionString(),
            [key] = value,
        };
        await using var factory = new OrderServiceFactory(settings);

        var failure = Should.Throw<Exception>(() => factory.CreateClient());

        // OptionsValidationException from the validators, an unknown enum name included.
        var messages = new List<string>();
        for (var current = (Exception?)failure; current is not null; current = current.InnerException)
        {
            messages.Add(current.Message);
        }

        messages.ShouldContain(m => m.Contains(key, StringComparison.Ordinal));
    }
}
