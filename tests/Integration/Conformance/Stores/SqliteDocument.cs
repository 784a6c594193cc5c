using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

public sealed class SqliteDocumentStore : SqliteStoreFixture
{
    public override string StoreName => "SQLite document";

    protected override string Layout => "Document";
}

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

/// <summary>The switch combinations that mean something for the document layout: the defaults with each batch filter.</summary>
public static class DocumentSwitches
{
    public static IEnumerable<string> Keys =>
        Enum.GetValues<OrderService.Data.BatchFilter>().Select(filter => (SwitchSet.Defaults with { BatchFilter = filter }).Key);
}
