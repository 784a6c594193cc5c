using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

[Trait(StoreTraits.Store, StoreTraits.Citus)]
public sealed class CitusRelationalConformance(CitusRelationalStore store) : ConformanceSuite<CitusRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.Citus)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class CitusDocumentConformance(CitusDocumentStore store) : ConformanceSuite<CitusDocumentStore>(store);
