namespace OrderService.Data.Sqlite;

/// <summary>Builds the Sqlite store for the configured layout and switches.</summary>
public static class SqliteStores
{
    public static StoreBundle Create(StoreContext context) =>
        throw new NotSupportedException("Store:Provider=Sqlite is not wired yet.");
}
