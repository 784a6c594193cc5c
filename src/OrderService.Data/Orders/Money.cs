namespace OrderService.Data.Orders;

/// <summary>Money is numeric(18,2) in every store.</summary>
public static class Money
{
    /// <summary>The amount rounded to cents with its scale fixed at two.</summary>
    public static decimal TwoDecimals(decimal value) => decimal.Round(value, 2, MidpointRounding.ToEven) + 0.00m;
}
