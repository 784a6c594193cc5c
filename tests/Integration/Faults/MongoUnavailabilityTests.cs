using MongoDB.Driver;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// A MongoDB the service cannot use is unavailability (<see cref="MongoTransientFaults"/>: Unreachable, retried within
/// the bound, then StoreUnavailableException, which the API answers 503 with Retry-After), never a 500: a closed port
/// (the connection is refused, no server can be selected in time) and a refused login on the test server.
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoUnavailabilityTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_refused_connection_is_unavailability_and_answered_as_a_store_fault()
    {
        var settings = MongoClientSettings.FromConnectionString(MongoDown.ConnectionString());
        settings.ServerSelectionTimeout = TimeSpan.FromMilliseconds(500);
        using var client = new MongoClient(settings);

        var refused = await Should.ThrowAsync<TimeoutException>(() => client.GetDatabase("orders").RunCommandAsync<MongoDB.Bson.BsonDocument>(new MongoDB.Bson.BsonDocument("ping", 1), cancellationToken: Ct));

        TestContext.Current.SendDiagnosticMessage(refused.Message);
        refused.Message.ShouldContain("Connection refused", Case.Insensitive);
        MongoTransientFaults.Instance.Classify(refused).ShouldBe(StoreFault.Unreachable);
    }

    [Fact]
    public async Task A_refused_login_is_unavailability_and_answered_as_a_store_fault()
    {
        await using var store = await MongoScratchStore.OpenAsync(uri: u =>
        {
            u.Username = "orders-nobody";
            u.Password = "wrong-" + Guid.NewGuid().ToString("N")[..8];
            u.AuthenticationSource = "admin";
        }, createSchema: false);

        var fault = await Should.ThrowAsync<StoreUnavailableException>(() => store.Resilient.GetAsync(Guid.CreateVersion7(), Ct));

        TestContext.Current.SendDiagnosticMessage($"{fault.Message} <- {fault.InnerException?.GetType().Name}: {fault.InnerException?.Message}");
        var cause = fault.InnerException.ShouldNotBeNull();
        MongoTransientFaults.Instance.Classify(cause).ShouldBe(StoreFault.Unreachable);
    }
}
