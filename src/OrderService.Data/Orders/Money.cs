namespace OrderService.Data.Orders;

/// <summary>Money is numeric(18,2) in every store: amounts carry exactly two decimals, so every store prints them alike.</summary>
public static class Money
{
    /// <summary>The amount rounded to cents with its scale fixed at two (21 becomes 21.00; SQLite hands back a double's digits).</summary>
    public static decimal TwoDecimals(decimal value) => decimal.Round(value, 2, MidpointRounding.ToEven) + 0.00m;
}
