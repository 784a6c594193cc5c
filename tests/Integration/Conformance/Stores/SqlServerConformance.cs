using OrderService.Data;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Stores;

[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerRelationalConformance(SqlServerRelationalStore store) : ConformanceSuite<SqlServerRelationalStore>(store);

/// <summary>
/// Every combination on SQL Server. Babelfish runs READ UNCOMMITTED as READ COMMITTED (docs/stores/babelfish.md), so
/// there a ReadUncommitted combination repeats its ReadCommitted twin: two of them still run, one per unit of work and
/// batch filter, to show the NOLOCK statements are accepted; the other ten would only add ten minutes to each run.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerRelationalSwitchMatrix(SqlServerRelationalStore store) : SwitchMatrixSuite<SqlServerRelationalStore>(store)
{
    private static readonly SwitchSet[] NolockKeptOnBabelfish =
    [
        SwitchSet.Defaults with { ReadIsolation = ReadIsolation.ReadUncommitted },
        new(UnitOfWork.PerCall, WriteIsolation.ReadCommitted, ReadIsolation.ReadUncommitted, BatchFilter.InList),
    ];

    protected override async Task<string?> RedundantBecauseAsync(SwitchSet switches) =>
        switches.ReadIsolation == ReadIsolation.ReadUncommitted
        && !NolockKeptOnBabelfish.Contains(switches)
        && await Store.EngineAsync() == SqlServerEngine.Babelfish
            ? "Babelfish runs READ UNCOMMITTED as READ COMMITTED, so this ReadUncommitted combination repeats its ReadCommitted twin; two such combinations still run there, and SQL Server runs all (docs/stores/babelfish.md)."
            : null;
}
