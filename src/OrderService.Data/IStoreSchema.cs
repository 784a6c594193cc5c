namespace OrderService.Data;

/// <summary>Creates or upgrades the schema, idempotently; run once at start-up.</summary>
public interface IStoreSchema
{
    Task EnsureCreatedAsync(CancellationToken cancellationToken);

    /// <summary>
    /// The other layout's tables in this database that hold rows (<see cref="LayoutTables"/>): the service does
    /// not read them, so after a switch of Store:Layout the store looks empty. Start-up warns, naming them.
    /// Empty for a store with one layout only.
    /// </summary>
    Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<TableRows>>([]);
}
