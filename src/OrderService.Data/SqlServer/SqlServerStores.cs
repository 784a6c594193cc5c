namespace OrderService.Data.SqlServer;

/// <summary>Builds the SqlServer store for the configured layout and switches.</summary>
public static class SqlServerStores
{
    public static StoreBundle Create(StoreContext context) =>
        throw new NotSupportedException("Store:Provider=SqlServer is not wired yet.");
}
