using System.Reflection;
using OrderService.Integration.Tests.Authorization;
using OrderService.Integration.Tests.Conformance;
using OrderService.Integration.Tests.Model;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Traits;

/// <summary>
/// Every store's run of a shared suite says which store it runs on (the Store trait), so that <c>-trait "Store=…"</c>
/// selects it and scripts/test.sh counts it for that store: a new store's suite without one would count as store-independent.
/// </summary>
public sealed class StoreTraitTests
{
    private static readonly Type[] SharedSuites = [typeof(ConformanceSuite<>), typeof(SwitchMatrixSuite<>), typeof(ModelBasedSuite<>), typeof(AuthorizationMatrix<>)];

    [Fact]
    public void Every_run_of_a_shared_suite_names_one_store()
    {
        var runs = typeof(StoreTraitTests).Assembly.GetTypes().Where(t => !t.IsAbstract && RunsASharedSuite(t)).ToList();

        runs.Count.ShouldBeGreaterThan(20);
        var unnamed = runs.Where(t => t.GetCustomAttributes<TraitAttribute>().Count(a => a.Name == StoreTraits.Store) != 1).Select(t => t.Name).ToList();
        unnamed.ShouldBeEmpty("each needs one [Trait(StoreTraits.Store, ...)]");
    }

    private static bool RunsASharedSuite(Type type)
    {
        for (var current = type.BaseType; current is not null; current = current.BaseType)
        {
            if (current.IsGenericType && SharedSuites.Contains(current.GetGenericTypeDefinition()))
            {
                return true;
            }
        }

        return false;
    }
}
