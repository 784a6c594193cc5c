namespace OrderService.Integration.Tests.Conformance.Stores;

public sealed class SqliteRelationalStore : SqliteStoreFixture
{
    public override string StoreName => "SQLite relational";
}

public sealed class SqliteRelationalConformance(SqliteRelationalStore store) : ConformanceSuite<SqliteRelationalStore>(store);

public sealed class SqliteRelationalSwitchMatrix(SqliteRelationalStore store) : SwitchMatrixSuite<SqliteRelationalStore>(store);
