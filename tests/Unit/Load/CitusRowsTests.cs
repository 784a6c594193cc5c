using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

/// <summary>
/// The shoot-out's Citus rows (--citus): which rows a run selects and plans, that each runs the PostgreSQL store
/// distributed, and the ratios the report states (Citus ÷ single-node PostgreSQL and ÷ pgbench, from the same run).
/// </summary>
public sealed class CitusRowsTests
{
    private const string Coordinator = "Host=127.0.0.1;Port=5650;Database=orders;Username=orders";

    [Fact]
    public void The_quick_set_on_citus_is_the_durable_default_of_each_layout_on_the_distributed_postgresql_store()
    {
        var options = Options(Coordinator);

        options.SelectedVariants(StoreKind.Citus).Select(v => v.Key)
            .ShouldBe(["citus/relational/v1-shared-uow", "citus/document/journaled-grouped"], ignoreOrder: true);
        foreach (var variant in VariantCatalog.For(StoreKind.Citus))
        {
            variant.Durable.ShouldBeTrue(variant.Key);
            var configuration = variant.Configuration(Coordinator);
            configuration["Store:Provider"].ShouldBe("PostgreSql");
            configuration["Store:PostgreSql:Distribution"].ShouldBe("Citus");
            VariantCatalog.For(StoreKind.PostgreSql).ShouldContain(v => v.Layout == variant.Layout && v.Name == variant.Name,
                $"{variant.Key} compares with the PostgreSQL row of the same name");
        }

        Variant.ParseStore("citus").ShouldBe(StoreKind.Citus);
    }

    [Fact]
    public void The_plan_lists_the_citus_rows_and_refuses_citus_without_a_coordinator()
    {
        ShootoutPlan.Problems(Options(null)).ShouldHaveSingleItem().ShouldContain("--citus");

        var options = Options(Coordinator);
        ShootoutPlan.Problems(options).ShouldBeEmpty();
        using var plan = new StringWriter();
        ShootoutPlan.Print(options, plan);
        plan.ToString().ShouldContain("citus: 2 rows");
        plan.ToString().ShouldContain("citus/relational/v1-shared-uow");
        plan.ToString().ShouldContain("citus/document/journaled-grouped");
    }

    [Fact]
    public void The_report_gives_citus_against_single_node_postgresql_and_pgbench_and_postgresql_keeps_its_own_pgbench()
    {
        var report = Report(
            [Row("postgres", "Relational", "v1-shared-uow", 400), Row("citus", "Relational", "v1-shared-uow", 100), Row("citus", "Document", "journaled-grouped", 90)],
            [new ReferenceResult("citus", "pgbench on the Citus coordinator", 200, "d"), new ReferenceResult("postgres", "pgbench", 500, "d")]);

        var lines = Ratios.Describe(report).ToList();

        lines.ShouldContain("Citus Relational/v1-shared-uow 100 wf/s ÷ single-node PostgreSQL 400 wf/s = **0.25×**; ÷ pgbench on Citus 200 wf/s = **0.50×**");
        lines.ShouldContain("Citus Document/journaled-grouped 90 wf/s ÷ pgbench on Citus 200 wf/s = **0.45×**", "no PostgreSQL document row ran: only the pgbench ratio");
        lines.ShouldContain("pgbench on the Citus coordinator ÷ pgbench on single-node PostgreSQL: 200 ÷ 500 = **0.40×**");
        lines.ShouldContain(l => l.StartsWith("PostgreSQL service vs pgbench", StringComparison.Ordinal) && l.Contains("÷ pgbench 500 wf/s", StringComparison.Ordinal));
    }

    [Fact]
    public void The_scale_out_row_is_planned_only_with_an_engine_folder_and_gives_wf_s_per_phase()
    {
        ShootoutPlan.Problems(Options(Coordinator) with { CitusScaleOutPort = 5653 }).ShouldHaveSingleItem().ShouldContain("--citus-engine");
        var options = Options(Coordinator) with { CitusScaleOutPort = 5653, CitusEngineDirectory = "/tmp/citus" };
        ShootoutPlan.Problems(options).ShouldBeEmpty();
        ShootoutPlan.PlannedRows(options, StoreKind.Citus).ShouldBe(3);
        using var plan = new StringWriter();
        ShootoutPlan.Print(options, plan);
        plan.ToString().ShouldContain("citus/relational/v1-shared-uow+scale-out (a worker on port 5653 joins mid-run");

        ScaleOutPhases.Describe(
        [
            new("before", TimeSpan.Zero, 0), new("joining", TimeSpan.FromSeconds(10), 1500),
            new("rebalancing", TimeSpan.FromSeconds(14), 1900), new("after", TimeSpan.FromSeconds(34), 2900),
        ], new("end", TimeSpan.FromSeconds(44), 4400)).ShouldBe(
            "before 150 wf/s (0.0-10.0 s, 1,500 workflows); joining 100 wf/s (10.0-14.0 s, 400 workflows); "
            + "rebalancing 50 wf/s (14.0-34.0 s, 1,000 workflows); after 150 wf/s (34.0-44.0 s, 1,500 workflows)");
    }

    [Fact]
    public void A_rebalance_that_outlives_the_run_counts_its_workflows_up_to_the_run_s_end_only()
    {
        // The run's last workflow ends at 73.4 s, the rebalance at 124.4 s: 5,000 workflows in 36.2 s, not in 87.2 s.
        var described = ScaleOutPhases.Describe(
        [
            new("before", TimeSpan.Zero, 0), new("joining", TimeSpan.FromSeconds(10), 1_000),
            new("rebalancing", TimeSpan.FromSeconds(37.2), 3_000), new("after", TimeSpan.FromSeconds(124.4), 8_000),
        ], new("end", TimeSpan.FromSeconds(73.4), 8_000));

        described.ShouldBe("before 100 wf/s (0.0-10.0 s, 1,000 workflows); "
            + "joining 74 wf/s (10.0-37.2 s, 2,000 workflows); rebalancing 138 wf/s (37.2-73.4 s, 5,000 workflows)");
    }

    private static ShootoutOptions Options(string? citus) => new()
    {
        Stores = [StoreKind.PostgreSql, StoreKind.Citus],
        OutputDirectory = Path.GetTempPath(),
        CitusConnectionString = citus,
    };

    private static VariantResult Row(string store, string layout, string variant, double perSecond) => new(
        $"{store}/{layout.ToLowerInvariant()}/{variant}", store, layout, variant, "variant 1", "d", true, "sync", false, 1000, 100,
        1000 / perSecond, perSecond, 1000, [], [], new AuditResult(1000, 0, 0, 0, 0, 0, 0, 0, []), null, null, null, null, null);

    private static ShootoutReport Report(VariantResult[] rows, ReferenceResult[] references)
    {
        var machine = new MachineInfo("host", 2, 4096, "cpu", "linux", ".NET 10", []);
        var header = new ReportHeader(DateTimeOffset.UnixEpoch, "cmd", machine, 1000, 100, 100, 0, []);
        return new ShootoutReport(header, [.. rows], [.. references], []);
    }
}
