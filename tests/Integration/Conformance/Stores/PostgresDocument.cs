using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

public sealed class PostgresDocumentStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL document";

    protected override string Layout => "Document";
}

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

/// <summary>The same suite with Store:PostgreSql:GroupCommit off: every request's write commits on its own connection.</summary>
public sealed class PostgresDocumentUngroupedStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL document, each request committed alone";

    protected override string Layout => "Document";

    protected override IEnumerable<KeyValuePair<string, string?>> ExtraSettings() => [new("Store:PostgreSql:GroupCommit", "false")];
}

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class PostgresDocumentUngroupedConformance(PostgresDocumentUngroupedStore store) : ConformanceSuite<PostgresDocumentUngroupedStore>(store);
