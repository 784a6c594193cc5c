namespace OrderService.Data.Orders;

/// <summary>Where an order is in its workflow. Stored as its name, so rows read well in any SQL console.</summary>
public enum OrderStatus
{
    Created,
    Paid,
    Shipped,
    Completed,
    Cancelled,
}
