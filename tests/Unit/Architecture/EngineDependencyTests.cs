using System.Reflection;
using System.Xml.Linq;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.PostgreSql;
using OrderService.Data.Resilience;
using OrderService.Data.Sqlite;
using OrderService.Data.SqlServer;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Architecture;

/// <summary>
/// The data layer's dependency rules, read from the compiled assemblies (signatures and method bodies): an engine's folder
/// or project uses no other engine and no other engine's driver, and the shared folders (the model, the port, the SQL
/// engine, the document layout, resilience) use no engine at all. An engine's project file references the core and its
/// own driver only, and the core's none of those drivers; nothing in the core names an engine or a driver.
/// </summary>
public sealed class EngineDependencyTests
{
    private const string Root = "OrderService.Data";

    private static readonly Dictionary<string, string[]> EngineDrivers = new(StringComparer.Ordinal)
    {
        [$"{Root}.Sqlite"] = ["Microsoft.Data.Sqlite", "SQLitePCLRaw.core"],
        [$"{Root}.PostgreSql"] = ["Npgsql", "Npgsql.DependencyInjection"],
        [$"{Root}.SqlServer"] = ["Microsoft.Data.SqlClient"],
        [$"{Root}.MongoDb"] = ["MongoDB.Driver", "MongoDB.Bson"],
    };

    private static readonly string[] Shared =
        [$"{Root}.Orders", $"{Root}.Relational", $"{Root}.Document", $"{Root}.Resilience", $"{Root}.Keys"];

    [Fact]
    public void An_engine_uses_neither_another_engine_nor_its_driver()
    {
        var violations = new List<string>();
        foreach (var type in DataTypes())
        {
            if (EngineOf(type.Namespace) is not { } engine)
            {
                continue;
            }

            foreach (var used in TypeUses.Uses(type))
            {
                if (EngineOf(used.Namespace) is { } other && other != engine)
                {
                    violations.Add($"{type.FullName} uses {used.FullName}");
                }

                if (DriverOwner(used) is { } owner && owner != engine)
                {
                    violations.Add($"{type.FullName} uses {owner}'s driver: {used.FullName}");
                }
            }
        }

        violations.Distinct().ShouldBeEmpty();
    }

    [Fact]
    public void The_shared_folders_use_no_engine_and_no_driver()
    {
        var violations = new List<string>();
        foreach (var type in DataTypes().Where(t => Shared.Any(s => InNamespace(t.Namespace, s))))
        {
            foreach (var used in TypeUses.Uses(type))
            {
                if (EngineOf(used.Namespace) is not null || DriverOwner(used) is not null)
                {
                    violations.Add($"{type.FullName} uses {used.FullName}");
                }
            }
        }

        violations.Distinct().ShouldBeEmpty();
    }

    [Fact]
    public void The_core_uses_no_engine_and_no_driver()
    {
        var violations = new List<string>();
        foreach (var type in typeof(IOrderStore).Assembly.GetTypes())
        {
            foreach (var used in TypeUses.Uses(type))
            {
                if (EngineOf(used.Namespace) is not null || DriverOwner(used) is not null)
                {
                    violations.Add($"{type.FullName} uses {used.FullName}");
                }
            }
        }

        violations.Distinct().ShouldBeEmpty();
    }

    [Fact]
    public void The_scan_sees_what_a_type_uses_in_its_method_bodies()
    {
        // The resilient calls name StoreErrors and the engine registration names its factory only inside a method
        // body: a scan of signatures alone would miss both.
        TypeUses.Uses(typeof(ResilientCalls)).ShouldContain(typeof(StoreErrors));
        TypeUses.Uses(typeof(MongoRegistration)).ShouldContain(typeof(MongoStores));
    }

    /// <summary>The drivers' packages, by the engine that owns them.</summary>
    private static readonly Dictionary<string, string> DriverPackages = new(StringComparer.Ordinal)
    {
        ["Microsoft.Data.Sqlite"] = $"{Root}.Sqlite",
        ["Npgsql"] = $"{Root}.PostgreSql",
        ["Npgsql.DependencyInjection"] = $"{Root}.PostgreSql",
        ["Npgsql.OpenTelemetry"] = $"{Root}.PostgreSql",
        ["OpenTelemetry.Api.ProviderBuilderExtensions"] = $"{Root}.PostgreSql",
        ["Microsoft.Data.SqlClient"] = $"{Root}.SqlServer",
        ["OpenTelemetry.Instrumentation.SqlClient"] = $"{Root}.SqlServer",
        ["MongoDB.Driver"] = $"{Root}.MongoDb",
    };

    [Fact]
    public void An_engine_project_references_the_core_and_its_own_driver_only_and_the_core_no_driver_of_theirs()
    {
        var src = Path.Combine(RepositoryRoot, "src");
        var engineProjects = Directory.GetDirectories(src, $"{Root}.*").Select(Path.GetFileName).Where(name => name != Root).ToList();
        engineProjects.ShouldNotBeEmpty();

        var violations = new List<string>();
        foreach (var project in engineProjects)
        {
            var text = File.ReadAllText(Path.Combine(src, project!, $"{project}.csproj"));
            violations.AddRange(References(text, "ProjectReference").Where(r => r != $"../{Root}/{Root}.csproj").Select(r => $"{project} references {r}"));
            violations.AddRange(References(text, "PackageReference").Where(p => DriverPackages.GetValueOrDefault(p) != project).Select(p => $"{project} references {p}"));
        }

        var core = File.ReadAllText(Path.Combine(src, Root, $"{Root}.csproj"));
        violations.AddRange(References(core, "PackageReference").Where(p => engineProjects.Contains(DriverPackages.GetValueOrDefault(p))).Select(p => $"{Root} references {p}"));

        violations.ShouldBeEmpty();
    }

    internal static string RepositoryRoot { get; } = typeof(EngineDependencyTests).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
        .Single(a => a.Key == "RepositoryRoot").Value!;

    private static IEnumerable<string> References(string project, string item) =>
        XDocument.Parse(project).Descendants(item).Select(e => (string)e.Attribute("Include")!);

    /// <summary>The core and every engine's project.</summary>
    private static IEnumerable<Type> DataTypes() =>
        new[] { typeof(IOrderStore), typeof(SqliteStores), typeof(PostgreSqlStores), typeof(MongoStores), typeof(SqlServerStores) }.SelectMany(t => t.Assembly.GetTypes());

    private static bool InNamespace(string? name, string prefix) =>
        name is not null && (name == prefix || name.StartsWith(prefix + ".", StringComparison.Ordinal));

    private static string? EngineOf(string? name) => EngineDrivers.Keys.FirstOrDefault(engine => InNamespace(name, engine));

    private static string? DriverOwner(Type used)
    {
        var assembly = used.Assembly.GetName().Name;
        return EngineDrivers.FirstOrDefault(e => e.Value.Contains(assembly, StringComparer.Ordinal)).Key;
    }
}
