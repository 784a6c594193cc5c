using OrderService.Data.Orders;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Model;

/// <summary>
/// The property can fail: with a broken rule in the model (ship allowed from Created) it must find a
/// disagreement on a real store and shrink it to the two commands that show it. On SQLite only: this checks
/// the checker, not a store.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.SQLite)]
public sealed class SqliteRelationalModelSelfTests(SqliteRelationalStore store) : IClassFixture<SqliteRelationalStore>
{
    [Fact]
    public async Task A_broken_rule_in_the_model_is_found_and_shrunk_to_create_then_ship()
    {
        var service = await store.DefaultAsync();
        static TransitionVerdict ShipFromCreatedToo(OrderStatus status, int version, OrderAction action, int? expected) =>
            action == OrderAction.Ship && status == OrderStatus.Created && (expected is null || expected == version)
                ? TransitionVerdict.Allowed
                : Transitions.Decide(status, version, action, expected);
        var check = new ModelCheck(store.StoreName + " (model broken on purpose)", () => new HttpRunner(service.Api), () => new PortRunner(service.Store), ShipFromCreatedToo);

        var failure = await check.CheckAsync(ModelCheck.Iterations, ModelCheck.Seed);

        failure.ShouldNotBeNull("a model that lets ship follow create must disagree with the store");
        TestContext.Current.TestOutputHelper?.WriteLine(failure.ToString());
        failure.ShrunkLength.ShouldBe(2, failure.ToString());
        var commands = failure.Report.Steps.Where(s => !s.FinalCheck).Select(s => s.Command).ToList();
        commands[0].ShouldBeOfType<CreateCommand>();
        commands[1].ShouldBeOfType<StepCommand>().Action.ShouldBe(OrderAction.Ship);
        failure.Report.Steps[^1].Http.Outcome.ShouldBe("409 illegal");
    }
}
