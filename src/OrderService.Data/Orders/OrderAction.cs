namespace OrderService.Data.Orders;

/// <summary>A step that moves an existing order along its workflow.</summary>
public enum OrderAction
{
    Pay,
    Ship,
    Complete,
    Cancel,
}
