using OrderService.Integration.Tests.Conformance.Infrastructure;

namespace OrderService.Integration.Tests.Conformance.Stores;

public sealed class PostgresRelationalStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL relational";
}

public sealed class PostgresRelationalConformance(PostgresRelationalStore store) : ConformanceSuite<PostgresRelationalStore>(store);

public sealed class PostgresRelationalSwitchMatrix(PostgresRelationalStore store) : SwitchMatrixSuite<PostgresRelationalStore>(store);
