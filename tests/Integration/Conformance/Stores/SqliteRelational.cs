using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

public sealed class SqliteRelationalStore : SqliteStoreFixture
{
    public override string StoreName => "SQLite relational";
}

[Trait(StoreTraits.Store, StoreTraits.SQLite)]
public sealed class SqliteRelationalConformance(SqliteRelationalStore store) : ConformanceSuite<SqliteRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.SQLite)]
public sealed class SqliteRelationalSwitchMatrix(SqliteRelationalStore store) : SwitchMatrixSuite<SqliteRelationalStore>(store);
