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
/// The classes on a pg_auto_failover cluster count as PostgreSQL too, and say so (Server=PgAutoFailover), for that is what
/// lets scripts/test.sh accept their skip where pg_auto_failover is missing while every other PostgreSQL test must run.
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

    [Fact]
    public void Every_class_on_a_pg_auto_failover_cluster_is_a_PostgreSQL_test_that_says_where_its_server_comes_from()
    {
        var classes = typeof(StoreTraitTests).Assembly.GetTypes()
            .Where(t => t is { IsClass: true, IsAbstract: false, IsNested: false } && HasTests(t) && MethodBodies.Use(t, typeof(PgAutoFailoverCluster)))
            .ToList();

        classes.Select(t => t.Name).ShouldBe(["PgAutoFailoverAsynchronousTests", "PgAutoFailoverTests"], ignoreOrder: true);
        var untraited = classes.Where(t => Trait(t, StoreTraits.Store) != StoreTraits.PostgreSql || Trait(t, StoreTraits.Server) != StoreTraits.PgAutoFailover)
            .Select(t => t.Name).ToList();
        untraited.ShouldBeEmpty("each needs [Trait(StoreTraits.Store, StoreTraits.PostgreSql)] and [Trait(StoreTraits.Server, StoreTraits.PgAutoFailover)]");
    }

    [Fact]
    public void Only_the_pg_auto_failover_classes_say_their_server_is_pg_auto_failover()
    {
        var marked = typeof(StoreTraitTests).Assembly.GetTypes().Where(t => Trait(t, StoreTraits.Server) is not null).ToList();

        marked.ShouldAllBe(t => MethodBodies.Use(t, typeof(PgAutoFailoverCluster)), "a skip is accepted only where pg_auto_failover may be missing");
    }

    private static string? Trait(Type type, string name) =>
        type.GetCustomAttributes<TraitAttribute>().SingleOrDefault(a => a.Name == name)?.Value;

    private static bool HasTests(Type type) =>
        type.GetMethods().Any(m => m.GetCustomAttributes<FactAttribute>().Any());

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
