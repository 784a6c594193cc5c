using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoConformance(MongoStore store) : ConformanceSuite<MongoStore>(store);

[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoAcknowledgedConformance(MongoAcknowledgedStore store) : ConformanceSuite<MongoAcknowledgedStore>(store);

[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoMajorityConformance(MongoMajorityStore store) : ConformanceSuite<MongoMajorityStore>(store);

/// <summary>
/// The general switches that mean something on MongoDB: UnitOfWork (a session per request or none) and BatchFilter
/// (one $in or one per 1,000 ids). WriteIsolation and ReadIsolation have no counterpart there (docs/stores/mongodb.md), so
/// their combinations would only repeat the same runs.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoSwitchMatrix(MongoStore store) : SwitchMatrixSuite<MongoStore>(store)
{
    public static new TheoryData<string> Switches => new(
        from unitOfWork in Enum.GetValues<OrderService.Data.UnitOfWork>()
        from batch in Enum.GetValues<OrderService.Data.BatchFilter>()
        select (SwitchSet.Defaults with { UnitOfWork = unitOfWork, BatchFilter = batch }).Key);
}
