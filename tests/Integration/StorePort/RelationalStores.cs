using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Servers;
using Xunit;

namespace OrderService.Integration.Tests.StorePort;

/// <summary>
/// The store-port tests of the relational switches run alone (no other collection in parallel): they
/// count the commands and connections every store in the process reports, and they put 100 concurrent
/// writers on a 2-core machine.
/// </summary>
[CollectionDefinition(nameof(RelationalStoresCollection), DisableParallelization = true)]
public sealed class RelationalStoresCollection : ICollectionFixture<RelationalStores>;

/// <summary>Relational stores, each on a fresh database or file.</summary>
public sealed class RelationalStores(PostgresServer postgres) : ScratchStores(postgres, StoreLayout.Relational);

public static class TestOrders
{
    public static Order New(string? customerId = null) =>
        Transitions.Create(
            Guid.CreateVersion7(),
            customerId ?? "cust-" + Guid.NewGuid().ToString("N")[..12],
            [new OrderLine("SKU-1", 3, 12.34m), new OrderLine("SKU-2", 1, 0.5m)],
            Timestamps.Now(TimeProvider.System));

    public static string Hash(string seed) =>
        Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(seed)));

    public static TransitionCommand Command(Guid id, OrderAction action, int? expectedVersion = null) =>
        new(id, action, expectedVersion, Timestamps.Now(TimeProvider.System), action switch
        {
            OrderAction.Pay => new OrderEventData(PaymentReference: "pay-1"),
            OrderAction.Ship => new OrderEventData(Carrier: "DHL", TrackingNumber: "T-1"),
            OrderAction.Cancel => new OrderEventData(Reason: "changed my mind"),
            _ => new OrderEventData(),
        });
}
