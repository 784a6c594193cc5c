using System.Reflection;
using OrderService.Integration.Tests.Authorization;
using OrderService.Integration.Tests.Conformance;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Faults;
using OrderService.Integration.Tests.Model;
using OrderService.Integration.Tests.Replicas;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;
using Xunit.Sdk;
using Xunit.v3;

namespace OrderService.Integration.Tests.Traits;

/// <summary>
/// Every test that reaches a database, and every store's run of a shared suite, says which store it runs on (the
/// Store trait), so that <c>-trait "Store=…"</c> selects it and scripts/test.sh counts it for that store: one without
/// it would count as store-independent.
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

    /// <summary>
    /// What reaches a database: its server, a fixture that hands out its databases, or a store fixture (a SQLite file's
    /// counts as its store's too). A test class whose code uses one of them is checked test by test.
    /// </summary>
    private static readonly Type[] Databases =
    [
        typeof(PostgresServer), typeof(ThrowawayPostgres), typeof(ThrowawayStandby), typeof(PrimaryWithStandby),
        typeof(RefusingPostgres), typeof(CitusDatabases), typeof(PgAutoFailoverCluster), typeof(TestServers),
        typeof(MongoTestServer), typeof(MongoEngine), typeof(MongoScratchStore), typeof(ScratchStores),
        typeof(StoreFixture),
    ];

    /// <summary>
    /// Tests of how a server is chosen, from given environments and Docker endpoints: a failed pull needs Docker and
    /// skips without it, which scripts/test.sh does not accept of a PostgreSQL test.
    /// </summary>
    private static readonly string[] ChooseAServerOnly =
    [
        nameof(ServerSelectionTests.A_failed_pull_falls_through_to_the_next_choice_with_Docker_s_reason_logged),
        nameof(ServerSelectionTests.A_connection_string_in_the_environment_is_used_and_nothing_else_is_tried),
        nameof(ServerSelectionTests
            .With_no_connection_string_and_no_Docker_answering_the_server_is_skipped_with_each_reason),
        nameof(ServerSelectionTests.A_failed_pull_with_nothing_after_it_skips_with_Docker_s_reason),
        nameof(ServerSelectionTests.The_shared_MongoDB_selection_is_made_once_per_test_process),
    ];

    [Fact]
    public void Every_test_that_reaches_a_database_names_its_store()
    {
        var classes = typeof(StoreTraitTests).Assembly.GetTypes()
            .Where(t => t is { IsClass: true, IsAbstract: false } && HasTests(t))
            .Where(t => Databases.Any(database => MethodBodies.Use(t, database)))
            .ToList();

        classes.Count.ShouldBeGreaterThan(30);
        var unnamed = classes.SelectMany(t => TestMethods(t).Where(m => !NamesAStore(t, m) && !ChoosesAServerOnly(t, m))
            .Select(m => $"{t.Name}.{m.Name}")).ToList();
        unnamed.ShouldBeEmpty("each needs [Trait(StoreTraits.Store, ...)] on its class or method, or a Store trait " +
                              "on every data row ([StoreData], WithStoreTraits()): scripts/test.sh counts by it");

        static bool ChoosesAServerOnly(Type type, MethodInfo method) =>
            type == typeof(ServerSelectionTests) && ChooseAServerOnly.Contains(method.Name);
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

    private static bool HasTests(Type type) => TestMethods(type).Any();

    private static IEnumerable<MethodInfo> TestMethods(Type type) =>
        type.GetMethods().Where(m => m.GetCustomAttributes<FactAttribute>().Any());

    /// <summary>A Store trait on the class or the method, or on every row of its data.</summary>
    private static bool NamesAStore(Type type, MethodInfo method)
    {
        if (Trait(type, StoreTraits.Store) is not null
            || method.GetCustomAttributes<TraitAttribute>().Any(a => a.Name == StoreTraits.Store))
        {
            return true;
        }

        var data = method.GetCustomAttributes().OfType<IDataAttribute>().ToList();
        return data.Count > 0
               && data.All(attribute => NamesAStore(attribute.Traits) || EveryRowNamesAStore(attribute, method));
    }

    private static bool EveryRowNamesAStore(IDataAttribute data, MethodInfo method)
    {
        var rows = (data is MemberDataAttributeBase member
            ? MemberRows(member, method)
            : data.GetData(method, new DisposalTracker()).AsTask().GetAwaiter().GetResult()).ToList();
        return rows.Count > 0
               && rows.All(row => row is ITheoryDataRow { Traits: { } traits } && traits.ContainsKey(StoreTraits.Store));
    }

    /// <summary>The rows a [MemberData] member returns (its GetData answers none outside a test run).</summary>
    private static IEnumerable<object> MemberRows(MemberDataAttributeBase data, MethodInfo method)
    {
        const BindingFlags Static =
            BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.FlattenHierarchy;
        var type = data.MemberType ?? method.DeclaringType!;
        var rows = type.GetProperty(data.MemberName, Static)?.GetValue(null)
            ?? type.GetMethod(data.MemberName, Static)?.Invoke(null, data.Arguments)
            ?? type.GetField(data.MemberName, Static)?.GetValue(null);
        return rows is System.Collections.IEnumerable enumerable ? enumerable.Cast<object>() : [];
    }

    private static bool NamesAStore(string[]? traits) =>
        traits is not null && traits.Where((_, i) => i % 2 == 0).Contains(StoreTraits.Store);

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
