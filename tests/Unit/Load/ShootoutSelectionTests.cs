using OrderService.Load.Scenarios;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

/// <summary>
/// The shoot-out's first answer in minutes: which variants run without --variants, when the adaptive warm-up calls
/// the service steady, how its budget is cut into windows, the live view's time left, and how a workflow's parts
/// spread over service replicas.
/// </summary>
public sealed class ShootoutSelectionTests
{
    [Fact]
    public void Without_variants_each_store_runs_its_defaults_the_seeds_baseline_and_one_durability_traded_row()
    {
        var options = Options();

        Keys(options, StoreKind.Sqlite).ShouldBe(["sqlite/relational/baseline", "sqlite/relational/v1-shared-uow", "sqlite/relational/durability-traded"], ignoreOrder: true);
        Keys(options, StoreKind.PostgreSql).ShouldBe(["postgres/relational/baseline", "postgres/relational/v1-shared-uow", "postgres/relational/durability-traded"], ignoreOrder: true);
        foreach (var store in new[] { StoreKind.Sqlite, StoreKind.PostgreSql })
        {
            var selected = options.SelectedVariants(store).ToList();
            selected.Count(v => !v.Durable).ShouldBe(1, $"{store}: exactly one row trades durability");
            selected.ShouldContain(v => v.SeedAnalogue == "baseline", $"{store}: the seed's baseline");
        }
    }

    [Fact]
    public void Every_quick_set_key_names_a_variant_of_the_catalog()
    {
        var catalog = Enum.GetValues<StoreKind>().SelectMany(VariantCatalog.For).Select(v => v.Key).ToHashSet(StringComparer.OrdinalIgnoreCase);
        foreach (var key in QuickSet.Keys)
        {
            catalog.ShouldContain(key, $"the quick set names {key}, which the catalog no longer has");
        }
    }

    [Fact]
    public void All_runs_the_whole_matrix_and_explicit_lists_still_select_exactly_what_they_name()
    {
        Options("all").SelectedVariants(StoreKind.Sqlite).Count().ShouldBe(VariantCatalog.For(StoreKind.Sqlite).Count);
        Options("all").SelectedVariants(StoreKind.PostgreSql).Count().ShouldBe(VariantCatalog.For(StoreKind.PostgreSql).Count);
        Keys(Options("relational/v1-shared-uow", "document/v5-group-commit"), StoreKind.PostgreSql)
            .ShouldBe(["postgres/relational/v1-shared-uow", "postgres/document/v5-group-commit"], ignoreOrder: true);
        Keys(Options("quick", "document/v4-journaled"), StoreKind.Sqlite).Count.ShouldBe(4, "quick plus a named variant");
    }

    [Theory]
    [InlineData(new[] { 100.0, 200, 300 }, false)]
    [InlineData(new[] { 100.0, 200, 205 }, true)]
    [InlineData(new[] { 300.0, 315 }, true)]
    [InlineData(new[] { 300.0, 316 }, false)]
    [InlineData(new[] { 316.0, 300 }, false)]
    [InlineData(new[] { 250.0 }, false)]
    [InlineData(new[] { 0.0, 0 }, false)]
    public void Steady_state_is_two_consecutive_windows_within_five_percent_of_the_larger(double[] rates, bool steady)
    {
        var detector = new SteadyStateDetector();
        foreach (var rate in rates)
        {
            detector.Add(rate);
        }

        detector.IsSteady.ShouldBe(steady);
        detector.Rates.ShouldBe(rates);
    }

    [Fact]
    public void A_window_that_breaks_the_agreement_makes_the_detector_unsteady_again()
    {
        var detector = new SteadyStateDetector();
        detector.Add(300).ShouldBeFalse();
        detector.Add(302).ShouldBeTrue();
        detector.Add(250).ShouldBeFalse();
        Should.Throw<ArgumentOutOfRangeException>(() => detector.Add(double.NaN));
    }

    [Theory]
    [InlineData(2000, 100, 300, 7)]
    [InlineData(20, 20, 20, 1)]
    [InlineData(240, 20, 60, 4)]
    [InlineData(0, 100, 0, 0)]
    public void The_warm_up_budget_is_cut_into_windows_of_three_rounds_per_copy_never_past_the_cap(int cap, int copies, int firstWindow, int windows)
    {
        var plan = WarmupWindows.Plan(cap, copies).ToList();

        plan.Count.ShouldBe(windows);
        plan.Sum().ShouldBe(cap);
        if (windows > 0)
        {
            plan[0].ShouldBe(firstWindow);
            plan.ShouldAllBe(size => size > 0 && size <= WarmupWindows.Size(copies));
        }
    }

    [Fact]
    public void The_time_left_extrapolates_the_rows_done_and_drops_rows_that_will_not_run()
    {
        var time = new ManualTime();
        var estimate = new RunEstimate(6, time);
        time.Advance(TimeSpan.FromSeconds(30)); // publishing, before the first row: not a row's time
        estimate.RowStarted();
        estimate.Left.ShouldBeNull("nothing to extrapolate from before the first row ends");

        time.Advance(TimeSpan.FromSeconds(20));
        estimate.RowFinished();
        estimate.RowStarted();
        estimate.Left.ShouldBe(TimeSpan.FromSeconds(100), "5 rows left at 20 s each");

        time.Advance(TimeSpan.FromSeconds(5));
        estimate.Left.ShouldBe(TimeSpan.FromSeconds(95), "5 s of the current row already spent");
        estimate.Elapsed.ShouldBe(TimeSpan.FromSeconds(55));
        estimate.ToString().ShouldContain("elapsed 0:55");

        estimate.Drop(3);
        estimate.Left.ShouldBe(TimeSpan.FromSeconds(35), "2 rows left");
        estimate.ToString().ShouldContain("~0:35 left");
    }

    [Fact]
    public void With_two_replicas_every_workflow_crosses_processes_and_each_process_takes_half_the_parts()
    {
        var perReplica = new int[2];
        for (var ticket = 0L; ticket < 100; ticket++)
        {
            var replicas = Enumerable.Range(0, 4).Select(part => HttpWorkflow.ReplicaFor(ticket, part, 2)).ToList();
            replicas.Distinct().Count().ShouldBe(2, $"workflow {ticket} crosses replicas");
            replicas.Zip(replicas.Skip(1)).ShouldAllBe(pair => pair.First != pair.Second, "each part lands on another process than the part before");
            replicas.ForEach(r => perReplica[r]++);
        }

        perReplica.ShouldBe([200, 200]);
        HttpWorkflow.ReplicaFor(7, 3, 1).ShouldBe(0);
        ReplicaSupport.WhyNot(StoreKind.Sqlite, 2).ShouldNotBeNull();
        ReplicaSupport.WhyNot(StoreKind.PostgreSql, 2).ShouldBeNull();
    }

    private static ShootoutOptions Options(params string[] variants) => variants.Length == 0
        ? new ShootoutOptions { Stores = [StoreKind.Sqlite, StoreKind.PostgreSql], OutputDirectory = Path.GetTempPath() }
        : new ShootoutOptions { Stores = [StoreKind.Sqlite, StoreKind.PostgreSql], OutputDirectory = Path.GetTempPath(), Variants = variants };

    private static List<string> Keys(ShootoutOptions options, StoreKind store) => [.. options.SelectedVariants(store).Select(v => v.Key)];

    /// <summary>A clock the test moves by hand.</summary>
    private sealed class ManualTime : TimeProvider
    {
        private long _ticks;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;

        public override long GetTimestamp() => _ticks;

        public void Advance(TimeSpan by) => _ticks += by.Ticks;
    }
}
