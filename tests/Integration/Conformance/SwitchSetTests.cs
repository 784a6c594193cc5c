using OrderService.Integration.Tests.Conformance.Infrastructure;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

public sealed class SwitchSetTests
{
    [Fact]
    public void The_pairwise_combinations_hold_every_pair_of_values_of_any_two_switches()
    {
        static string[] Values(SwitchSet s) =>
            [$"u:{s.UnitOfWork}", $"w:{s.WriteIsolation}", $"r:{s.ReadIsolation}", $"b:{s.BatchFilter}"];

        static IEnumerable<string> Pairs(SwitchSet s)
        {
            var values = Values(s);
            return from i in Enumerable.Range(0, values.Length)
                   from j in Enumerable.Range(i + 1, values.Length - i - 1)
                   select values[i] + "+" + values[j];
        }

        var wanted = SwitchSet.All().SelectMany(Pairs).ToHashSet();
        var held = SwitchSet.Pairwise.SelectMany(Pairs).ToHashSet();

        wanted.Except(held).ShouldBeEmpty();
        SwitchSet.Pairwise[0].ShouldBe(SwitchSet.Defaults);
        SwitchSet.Pairwise.Distinct().Count().ShouldBe(SwitchSet.Pairwise.Count);
    }
}
