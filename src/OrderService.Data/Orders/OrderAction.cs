namespace OrderService.Data.Orders;

/// <summary>A step that moves an existing order along its workflow (creation is not an action: it has no prior state).</summary>
public enum OrderAction
{
    Pay,
    Ship,
    Complete,
    Cancel,
}
