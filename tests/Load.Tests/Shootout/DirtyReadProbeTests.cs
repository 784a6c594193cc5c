using OrderService.Load.Shootout;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Load.Tests.Shootout;

/// <summary>
/// The shoot-out's dirty-read probe on PostgreSQL: the harness holds pays' writes uncommitted on its own connection
/// to the row's database while readers GET those orders over HTTP. PostgreSQL never reads uncommitted rows, so the
/// readers see none of them, at read-committed and at read-uncommitted alike: a measured 0.
/// </summary>
[Collection(nameof(LoadHarnessCollection))]
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
[Trait(StoreTraits.Layout, StoreTraits.Relational)]
public sealed class DirtyReadProbeTests
{
    [Fact(Timeout = 300_000)]
    public async Task On_PostgreSQL_readers_see_none_of_the_writes_the_harness_holds()
    {
        if (PostgresTarget.BinDirectory is null)
        {
            Assert.Skip("PostgreSQL is not installed here (initdb, pg_ctl).");
        }

        var output = Path.Combine(Path.GetTempPath(), $"dirty-read-probe-{Guid.NewGuid():N}");
        var options = new ShootoutOptions
        {
            Stores = [StoreKind.PostgreSql],
            Variants = ["relational/v1-shared-uow", "relational/v3-nolock"],
            Workflows = 60,
            Concurrency = 6,
            Warmup = 0,
            AbortRate = 0.5,
            HeldWriteMilliseconds = 300,
            Raw = false,
            Pgbench = false,
            OutputDirectory = output,
            ServiceDll = ShootoutSmokeTests.ServiceBuild(),
            Command = nameof(DirtyReadProbeTests),
        };

        try
        {
            var report = await new ShootoutRunner(options).RunAsync(TestContext.Current.CancellationToken);

            report.Rows.Count.ShouldBe(2);
            foreach (var row in report.Rows)
            {
                row.Failure.ShouldBeNull(row.Key);
                row.OkWorkflows.ShouldBe(options.Workflows, $"{row.Key}: errors {string.Join(", ", row.Errors)}");
                var audit = row.Audit.ShouldNotBeNull(row.Key);
                audit.WritesHeld.ShouldBe(options.Workflows / 2, $"{row.Key}: every second order's pay is held first");
                audit.ProbeReads.ShouldBeGreaterThan(0, $"{row.Key}: readers read orders while their writes were held");
                audit.DirtyReads.ShouldBe(0, $"{row.Key}: PostgreSQL shows no uncommitted row");
                audit.IsClean.ShouldBeTrue($"{row.Key}: {string.Join("; ", audit.Samples)}");
            }
        }
        finally
        {
            ShootoutSmokeTests.TryDelete(output);
        }
    }
}
