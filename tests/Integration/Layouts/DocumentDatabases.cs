using OrderService.Data;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using Xunit;

namespace OrderService.Integration.Tests.Layouts;

/// <summary>
/// The document-layout tests run alone (no other collection in parallel): they count the commands a
/// call sends, and they put 100 concurrent writers on a 2-core machine.
/// </summary>
[CollectionDefinition(nameof(DocumentCollection), DisableParallelization = true)]
public sealed class DocumentCollection : ICollectionFixture<DocumentDatabases>;

/// <summary>Document-layout stores (relational on request, for the equivalence tests), each on a fresh database or file.</summary>
public sealed class DocumentDatabases(PostgresServer postgres) : ScratchStores(postgres, StoreLayout.Document);
