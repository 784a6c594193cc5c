using System.Reflection;
using System.Reflection.Emit;
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
        [$"{Root}.Orders", $"{Root}.Payments", $"{Root}.Relational", $"{Root}.Document", $"{Root}.Resilience", $"{Root}.Keys", $"{Root}.Configuration"];

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

            foreach (var used in Uses(type))
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
            foreach (var used in Uses(type))
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
            foreach (var used in Uses(type))
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
        Uses(typeof(ResilientCalls)).ShouldContain(typeof(StoreErrors));
        Uses(typeof(MongoRegistration)).ShouldContain(typeof(MongoStores));
    }

    /// <summary>The drivers' packages, by the engine that owns them.</summary>
    private static readonly Dictionary<string, string> DriverPackages = new(StringComparer.Ordinal)
    {
        ["Microsoft.Data.Sqlite"] = $"{Root}.Sqlite",
        ["Npgsql"] = $"{Root}.PostgreSql",
        ["Npgsql.DependencyInjection"] = $"{Root}.PostgreSql",
        ["Microsoft.Data.SqlClient"] = $"{Root}.SqlServer",
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

    private static string RepositoryRoot { get; } = typeof(EngineDependencyTests).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
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

    /// <summary>Every type <paramref name="type"/> names: its base, interfaces, members' signatures and the types, methods and fields its IL refers to.</summary>
    private static HashSet<Type> Uses(Type type)
    {
        var found = new HashSet<Type>();
        void Add(Type? t)
        {
            if (t is null)
            {
                return;
            }

            if (t.HasElementType)
            {
                Add(t.GetElementType());
                return;
            }

            if (t.IsGenericType && !t.IsGenericTypeDefinition)
            {
                foreach (var argument in t.GetGenericArguments())
                {
                    Add(argument);
                }

                t = t.GetGenericTypeDefinition();
            }

            if (!t.IsGenericParameter)
            {
                found.Add(t);
            }
        }

        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        Add(type.BaseType);
        foreach (var implemented in type.GetInterfaces())
        {
            Add(implemented);
        }

        foreach (var field in type.GetFields(all))
        {
            Add(field.FieldType);
        }

        foreach (var method in type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all)))
        {
            if (method is MethodInfo info)
            {
                Add(info.ReturnType);
            }

            foreach (var parameter in method.GetParameters())
            {
                Add(parameter.ParameterType);
            }

            foreach (var local in method.GetMethodBody()?.LocalVariables ?? [])
            {
                Add(local.LocalType);
            }

            foreach (var referenced in BodyReferences(method))
            {
                Add(referenced);
            }
        }

        foreach (var nested in type.GetNestedTypes(all))
        {
            found.UnionWith(Uses(nested));
        }

        return found;
    }

    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => o.Value);

    /// <summary>The declaring types of the members, and the types, that <paramref name="method"/>'s IL names.</summary>
    private static IEnumerable<Type> BodyReferences(MethodBase method)
    {
        var il = method.GetMethodBody()?.GetILAsByteArray();
        if (il is null)
        {
            yield break;
        }

        var typeArguments = method.DeclaringType?.IsGenericType == true ? method.DeclaringType.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        var position = 0;
        while (position < il.Length)
        {
            short value = il[position++];
            if (value == 0xFE)
            {
                value = unchecked((short)(0xFE00 | il[position++]));
            }

            var opCode = OpCodesByValue[value];
            switch (opCode.OperandType)
            {
                case OperandType.InlineType or OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineTok:
                    var token = BitConverter.ToInt32(il, position);
                    position += 4;
                    Type? resolved = null;
                    try
                    {
                        var member = method.Module.ResolveMember(token, typeArguments, methodArguments);
                        resolved = member as Type ?? member?.DeclaringType;
                        if (member is MethodInfo called)
                        {
                            resolved = called.DeclaringType;
                        }
                    }
                    catch (ArgumentException)
                    {
                        // A token bound to a generic context the scan cannot supply: its open definition is still named elsewhere.
                    }

                    if (resolved is not null)
                    {
                        yield return resolved;
                    }

                    break;
                case OperandType.InlineSwitch:
                    var count = BitConverter.ToInt32(il, position);
                    position += 4 + (4 * count);
                    break;
                case OperandType.InlineBrTarget or OperandType.InlineI or OperandType.InlineSig or OperandType.InlineString or OperandType.ShortInlineR:
                    position += 4;
                    break;
                case OperandType.InlineI8 or OperandType.InlineR:
                    position += 8;
                    break;
                case OperandType.InlineVar:
                    position += 2;
                    break;
                case OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar:
                    position += 1;
                    break;
            }
        }
    }
}
