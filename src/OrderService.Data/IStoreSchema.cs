namespace OrderService.Data;

/// <summary>Creates or upgrades the schema, idempotently; run once at start-up.</summary>
public interface IStoreSchema
{
    Task EnsureCreatedAsync(CancellationToken cancellationToken);

    /// <summary>The other layout's tables in this database that hold rows.</summary>
    Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<TableRows>>([]);
}
