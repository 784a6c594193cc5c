using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRelationalConformance(PostgresRelationalStore store) : ConformanceSuite<PostgresRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRelationalSwitchMatrix(PostgresRelationalStore store) : SwitchMatrixSuite<PostgresRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRelationalUngroupedConformance(PostgresRelationalUngroupedStore store) : ConformanceSuite<PostgresRelationalUngroupedStore>(store);

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class PostgresDocumentConformance(PostgresDocumentStore store) : ConformanceSuite<PostgresDocumentStore>(store);

/// <summary>The document layout's transition is one statement, so only the batch filter applies to it.</summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class PostgresDocumentSwitchMatrix(PostgresDocumentStore store) : SwitchMatrixSuite<PostgresDocumentStore>(store)
{
    public static new TheoryData<string> Switches => new(DocumentSwitches.Keys);
}

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class PostgresDocumentUngroupedConformance(PostgresDocumentUngroupedStore store) : ConformanceSuite<PostgresDocumentUngroupedStore>(store);
