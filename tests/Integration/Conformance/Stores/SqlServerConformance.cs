using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerRelationalConformance(SqlServerRelationalStore store) : ConformanceSuite<SqlServerRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerRelationalSwitchMatrix(SqlServerRelationalStore store) : SwitchMatrixSuite<SqlServerRelationalStore>(store);
