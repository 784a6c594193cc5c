using OrderService.Data.Orders;

namespace OrderService.Benchmarks;

/// <summary>Orders shaped like the shoot-out's: three lines and the four workflow events.</summary>
public static class SampleOrders
{
    public static Order Completed(int seed)
    {
        var at = new DateTimeOffset(2026, 11, 22, 12, 0, 0, TimeSpan.Zero).AddSeconds(seed);
        var lines = new[]
        {
            new OrderLine("SKU-" + seed, 2, 19.99m),
            new OrderLine("SKU-B", 1, 5.00m),
            new OrderLine("SKU-C", 10, 0.25m),
        };
        var order = Transitions.Create(Guid.CreateVersion7(at), "customer-" + (seed % 100), lines, at);
        order = Transitions.Apply(order, OrderAction.Pay, at.AddMilliseconds(1), new OrderEventData(PaymentReference: "pay-" + seed));
        order = Transitions.Apply(order, OrderAction.Ship, at.AddMilliseconds(2), new OrderEventData(Carrier: "DHL", TrackingNumber: "TRK" + seed));
        return Transitions.Apply(order, OrderAction.Complete, at.AddMilliseconds(3), new OrderEventData());
    }

    public static Order[] Many(int count) => Enumerable.Range(0, count).Select(Completed).ToArray();
}
