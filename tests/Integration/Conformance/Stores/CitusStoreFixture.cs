using OrderService.Integration.Tests.Servers;
using OrderService.Testing;

namespace OrderService.Integration.Tests.Conformance.Stores;

/// <summary>
/// The PostgreSQL store with Store:PostgreSql:Distribution=Citus, on the Citus cluster that ORDERS_TEST_CITUS names
/// (../shared/engines/citus; .ci/run starts it): a distributed database of its own per host. Without the variable
/// its tests skip with that reason. The assembly's PostgreSQL server is never started by it.
/// </summary>
public abstract class CitusStoreFixture(PostgresServer server) : PostgresStoreFixture(server)
{
    private readonly CitusDatabases? _cluster = CitusDatabases.FromEnvironment();

    protected override Task<string?> FindUnavailableReasonAsync() =>
        Task.FromResult(_cluster is null ? CitusDatabases.UnavailableReason : null);

    protected override Task<string> CreateDatabaseAsync(string name, CancellationToken cancellationToken) =>
        _cluster!.CreateDatabaseAsync(name, cancellationToken);

    /// <inheritdoc />
    public override string? KeysUniquePerOrder =>
        "Citus limit: a unique key must hold the distribution column (the order id), so an Idempotency-Key is unique per order there, not across orders";

    /// <inheritdoc />
    public override string? CreateKeysLiveWithTheirOrder =>
        "Citus: a keyed create's order id is derived from its key, so the key lives as long as the order";

    /// <summary>Citus refuses triggers on distributed tables unless this is on (they run on the shards).</summary>
    protected override string PlantPreamble => "SET citus.enable_unsafe_triggers = on; SET citus.multi_shard_modify_mode = sequential;\n";

    protected override IEnumerable<KeyValuePair<string, string?>> ExtraSettings() => [new("Store:PostgreSql:Distribution", "Citus")];

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        if (_cluster is not null)
        {
            await _cluster.DisposeAsync();
        }
    }
}

public sealed class CitusRelationalStore(PostgresServer server) : CitusStoreFixture(server)
{
    public override string StoreName => "Citus relational";
}

public sealed class CitusDocumentStore(PostgresServer server) : CitusStoreFixture(server)
{
    public override string StoreName => "Citus document";

    protected override string Layout => "Document";
}
