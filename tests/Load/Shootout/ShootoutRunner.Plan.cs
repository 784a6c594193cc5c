namespace OrderService.Load.Shootout;

/// <summary>How many rows a store will add, for the live view's estimate of the time left.</summary>
public sealed partial class ShootoutRunner
{
    private int PlannedRows(StoreKind store)
    {
        var builds = options.BaselineCommit is null && options.BaselineServiceDll is null ? 1 : 2;
        var twins = options.Otlp ? 2 : 1;
        var replicaCounts = options.Replicas.Count(n => ReplicaSupport.WhyNot(store, n) is null);
        var ownsProcess = store == StoreKind.Sqlite || (store == StoreKind.PostgreSql && options.PostgresConnectionString is null);
        var crashes = ownsProcess ? options.SelectedCrashVariants(store).Count() : 0;
        return (options.SelectedVariants(store).Count() * builds * twins * replicaCounts) + crashes;
    }
}
