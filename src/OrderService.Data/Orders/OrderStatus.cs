namespace OrderService.Data.Orders;

/// <summary>Where an order is in its workflow.</summary>
public enum OrderStatus
{
    Created,
    Paid,
    Shipped,
    Completed,
    Cancelled,
}
