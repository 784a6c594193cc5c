using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

[Trait(StoreTraits.Store, StoreTraits.SQLite)]
public sealed class SqliteRelationalConformance(SqliteRelationalStore store) : ConformanceSuite<SqliteRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.SQLite)]
public sealed class SqliteRelationalSwitchMatrix(SqliteRelationalStore store) : SwitchMatrixSuite<SqliteRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.SQLite)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class SqliteDocumentConformance(SqliteDocumentStore store) : ConformanceSuite<SqliteDocumentStore>(store);

/// <summary>The document layout's transition is one statement, so only the batch filter applies to it.</summary>
[Trait(StoreTraits.Store, StoreTraits.SQLite)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class SqliteDocumentSwitchMatrix(SqliteDocumentStore store) : SwitchMatrixSuite<SqliteDocumentStore>(store)
{
    public static new TheoryData<string> Switches => new(DocumentSwitches.Keys);
}
