namespace OrderService.Data.Orders;

/// <summary>How a requested transition relates to the order's current state.</summary>
public enum TransitionVerdict
{
    Allowed,
    IllegalFromStatus,
    StaleVersion,
}

/// <summary>The workflow rules, in one place and free of I/O.</summary>
public static class Transitions
{
    public const string CreatedEventType = "Created";

    private static readonly OrderStatus[] FromCreated = [OrderStatus.Created];
    private static readonly OrderStatus[] FromPaid = [OrderStatus.Paid];
    private static readonly OrderStatus[] FromShipped = [OrderStatus.Shipped];
    private static readonly OrderStatus[] FromCreatedOrPaid = [OrderStatus.Created, OrderStatus.Paid];

    public static IReadOnlyList<OrderStatus> AllowedFrom(OrderAction action) => action switch
    {
        OrderAction.Pay => FromCreated,
        OrderAction.Ship => FromPaid,
        OrderAction.Complete => FromShipped,
        OrderAction.Cancel => FromCreatedOrPaid,
        _ => throw new ArgumentOutOfRangeException(nameof(action), action, null),
    };

    public static OrderStatus Target(OrderAction action) => action switch
    {
        OrderAction.Pay => OrderStatus.Paid,
        OrderAction.Ship => OrderStatus.Shipped,
        OrderAction.Complete => OrderStatus.Completed,
        OrderAction.Cancel => OrderStatus.Cancelled,
        _ => throw new ArgumentOutOfRangeException(nameof(action), action, null),
    };

    /// <summary>The audit event type the action appends: the name of the status it reaches.</summary>
    public static string EventType(OrderAction action) => Target(action).ToString();

    public static bool IsAllowed(OrderStatus from, OrderAction action) => AllowedFrom(action).Contains(from);

    public static TransitionVerdict Decide(OrderStatus current, int currentVersion, OrderAction action,
        int? expectedVersion)
    {
        if (expectedVersion is { } expected && expected != currentVersion)
        {
            return TransitionVerdict.StaleVersion;
        }

        return IsAllowed(current, action) ? TransitionVerdict.Allowed : TransitionVerdict.IllegalFromStatus;
    }

    /// <summary>The order after an allowed transition, built in memory.</summary>
    public static Order Apply(Order order, OrderAction action, DateTimeOffset at, OrderEventData data)
    {
        if (!IsAllowed(order.Status, action))
        {
            throw new InvalidOperationException($"{action} is not allowed from {order.Status}.");
        }

        var version = order.Version + 1;
        var events = new List<OrderEvent>(order.Events.Count + 1);
        events.AddRange(order.Events);
        events.Add(new OrderEvent(version, EventType(action), at, data));
        return order with { Status = Target(action), Version = version, UpdatedAt = at, Events = events };
    }

    /// <summary>A new order at version 1 with its Created event (sequence 1).</summary>
    public static Order Create(Guid id, string customerId, IReadOnlyList<OrderLine> lines, DateTimeOffset at)
    {
        var total = Total(lines);
        var created = new OrderEvent(1, CreatedEventType, at, new OrderEventData(Total: total));
        return new Order(id, customerId, OrderStatus.Created, lines, total, 1, at, at, [created]);
    }

    public static decimal Total(IReadOnlyList<OrderLine> lines)
    {
        decimal total = 0;
        foreach (var line in lines)
        {
            total += line.Quantity * line.UnitPrice;
        }

        return total;
    }
}
