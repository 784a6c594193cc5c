namespace OrderService.Data.PostgreSql;

/// <summary>Builds the PostgreSql store for the configured layout and switches.</summary>
public static class PostgreSqlStores
{
    public static StoreBundle Create(StoreContext context) =>
        throw new NotSupportedException("Store:Provider=PostgreSql is not wired yet.");
}
