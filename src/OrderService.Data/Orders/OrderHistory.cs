namespace OrderService.Data.Orders;

/// <summary>Earlier states of an order, rebuilt from the order alone.</summary>
public static class OrderHistory
{
    /// <summary>The order as it was right after the step that produced <paramref name="version"/>.</summary>
    public static Order AsOf(Order order, int version)
    {
        ArgumentNullException.ThrowIfNull(order);
        if (version == order.Version)
        {
            return order;
        }

        if (version < 1 || version > order.Version)
        {
            throw new ArgumentOutOfRangeException(nameof(version), version,
                $"Order {order.Id} is at version {order.Version}; it has no state at version {version}.");
        }

        var events = new OrderEvent[version];
        foreach (var e in order.Events)
        {
            if (e.Sequence >= 1 && e.Sequence <= version)
            {
                events[e.Sequence - 1] = e;
            }
        }

        if (Array.IndexOf(events, null) is var gap and >= 0)
        {
            throw new InvalidOperationException(
                $"Order {order.Id} has no event {gap + 1}: its history cannot be rebuilt.");
        }

        var last = events[^1];
        return order with { Status = StatusReachedBy(last.Type), Version = version, UpdatedAt = last.At, Events =
            events };
    }

    public static OrderStatus StatusReachedBy(string eventType) => eventType switch
    {
        Transitions.CreatedEventType => OrderStatus.Created,
        nameof(OrderStatus.Paid) => OrderStatus.Paid,
        nameof(OrderStatus.Shipped) => OrderStatus.Shipped,
        nameof(OrderStatus.Completed) => OrderStatus.Completed,
        nameof(OrderStatus.Cancelled) => OrderStatus.Cancelled,
        _ => throw new InvalidOperationException($"Unknown event type '{eventType}'."),
    };
}
