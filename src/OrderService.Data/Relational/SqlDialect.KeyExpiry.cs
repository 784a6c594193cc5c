namespace OrderService.Data.Relational;

public abstract partial class SqlDialect
{
    /// <summary>
    /// Deletes at most @Limit keys created before @Before, oldest first, through the created_at index.
    /// </summary>
    public abstract string DeleteExpiredKeys { get; }
}
