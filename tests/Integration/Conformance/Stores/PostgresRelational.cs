using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

public sealed class PostgresRelationalStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL relational";
}

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRelationalConformance(PostgresRelationalStore store) : ConformanceSuite<PostgresRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRelationalSwitchMatrix(PostgresRelationalStore store) : SwitchMatrixSuite<PostgresRelationalStore>(store);

/// <summary>The same suite with Store:PostgreSql:GroupCommit off: every request's write commits on its own connection.</summary>
public sealed class PostgresRelationalUngroupedStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL relational, each request committed alone";

    protected override IEnumerable<KeyValuePair<string, string?>> ExtraSettings() => [new("Store:PostgreSql:GroupCommit", "false")];
}

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRelationalUngroupedConformance(PostgresRelationalUngroupedStore store) : ConformanceSuite<PostgresRelationalUngroupedStore>(store);
