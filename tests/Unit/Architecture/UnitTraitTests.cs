using System.Reflection;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Architecture;

/// <summary>
/// A unit test reaches no database, so it carries no Store trait: scripts/test.sh counts a test with one as a run on
/// that store's database, and its "did the PostgreSQL tests run" guard trusts that count.
/// </summary>
public sealed class UnitTraitTests
{
    private const BindingFlags Declared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance |
                                          BindingFlags.Static | BindingFlags.DeclaredOnly;

    [Fact]
    public void No_unit_test_names_a_store()
    {
        var types = typeof(UnitTraitTests).Assembly.GetTypes();
        var members = types.Cast<MemberInfo>().Concat(types.SelectMany(t => t.GetMethods(Declared))).ToList();

        members.Count.ShouldBeGreaterThan(1_000);
        members.Where(m => m.GetCustomAttributes<TraitAttribute>().Any(a => a.Name == StoreTraits.Store))
            .Select(m => m is Type ? m.Name : $"{m.DeclaringType?.Name}.{m.Name}")
            .ShouldBeEmpty("a unit test reaches no database: no [Trait(StoreTraits.Store, ...)]");
    }
}
