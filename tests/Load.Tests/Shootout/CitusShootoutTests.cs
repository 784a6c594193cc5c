using OrderService.Load.Shootout;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Load.Tests.Shootout;

/// <summary>
/// The shoot-out's Citus row end to end, small and untimed: the service as a process on a distributed database of its
/// own on the cluster named by ORDERS_TEST_CITUS, every workflow acknowledged, the audit clean, and pgbench on the
/// coordinator beside it. Without ORDERS_TEST_CITUS it skips with that reason.
/// </summary>
[Collection(nameof(LoadHarnessCollection))]
[Trait(StoreTraits.Store, StoreTraits.Citus)]
public sealed class CitusShootoutTests
{
    private const int Workflows = 200;

    [Fact(Timeout = 300_000)]
    public async Task A_citus_row_acknowledges_every_workflow_audits_clean_and_compares_with_pgbench_on_the_coordinator()
    {
        var coordinator = Environment.GetEnvironmentVariable(CitusDatabases.ServerVariable);
        Assert.SkipWhen(string.IsNullOrEmpty(coordinator), CitusDatabases.UnavailableReason);
        var output = Path.Combine(Path.GetTempPath(), $"shootout-citus-{Guid.NewGuid():N}");
        var pgbench = PostgresTarget.BinDirectory is not null;
        var options = new ShootoutOptions
        {
            Stores = [StoreKind.Citus],
            CitusConnectionString = coordinator,
            Variants = ["relational/v1-shared-uow"],
            Workflows = Workflows,
            Concurrency = 20,
            Warmup = 0,
            Raw = false,
            Pgbench = pgbench,
            OutputDirectory = output,
            ServiceDll = ShootoutSmokeTests.ServiceBuild(),
            Command = "CitusShootoutTests",
        };

        try
        {
            var report = await new ShootoutRunner(options).RunAsync(TestContext.Current.CancellationToken);

            var row = report.Rows.ShouldHaveSingleItem();
            row.Key.ShouldBe("citus/relational/v1-shared-uow");
            row.Failure.ShouldBeNull();
            row.OkWorkflows.ShouldBe(Workflows, $"errors {string.Join(", ", row.Errors)}");
            row.Audit.ShouldNotBeNull();
            row.Audit.Acknowledged.ShouldBe(Workflows);
            row.Audit.IsClean.ShouldBeTrue(string.Join("; ", row.Audit.Samples));
            report.Header.Stores["citus"].ShouldContain("a distributed database per row");
            if (pgbench)
            {
                report.References.ShouldContain(r => r.Store == "citus" && r.WorkflowsPerSecond > 0, string.Join("; ", report.References.Select(r => r.Detail)));
                Ratios.Describe(report).ShouldContain(l => l.StartsWith("Citus Relational/v1-shared-uow", StringComparison.Ordinal) && l.Contains("÷ pgbench on Citus", StringComparison.Ordinal));
            }
        }
        finally
        {
            try
            {
                Directory.Delete(output, recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }
}
