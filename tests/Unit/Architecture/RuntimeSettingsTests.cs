using System.Reflection;
using System.Xml.Linq;
using Xunit;

namespace OrderService.Unit.Tests.Architecture;

/// <summary>
/// The cost ladder measures what each layer of the service costs; a rung that ran under other runtime settings than the
/// service would measure the settings instead (docs/cost-ladder.md). The load driver shares the cores with what it
/// measures, so its settings are chosen too.
/// </summary>
public sealed class RuntimeSettingsTests
{
    // The project properties that change how the runtime compiles or collects, and so the CPU a request costs.
    private static readonly string[] RuntimeProperties =
        ["TieredPGO", "TieredCompilation", "ServerGarbageCollector", "ConcurrentGarbageCollection", "InvariantGlobalization"];

    [Fact]
    public void The_cost_ladder_runs_under_the_service_s_runtime_settings()
    {
        var service = RuntimeSettings("src/OrderService/OrderService.csproj");
        var ladder = RuntimeSettings("tests/CostLadder/CostLadder.csproj");

        Assert.Equal(service, ladder);
        Assert.Equal("false", service["TieredPGO"]);
    }

    [Fact]
    public void The_integration_tests_host_the_service_without_tiered_pgo() =>
        Assert.Equal("false", RuntimeSettings("tests/Integration/Integration.csproj")["TieredPGO"]);

    [Fact]
    public void The_load_driver_runs_without_tiered_pgo()
    {
        // Its CPU per workflow is CPU the service and the database do not get (docs/cost-ladder.md#runtime-settings).
        Assert.Equal("false", RuntimeSettings("tests/Load/Load.csproj")["TieredPGO"]);
    }

    /// <summary>The properties a project sets, and its SDK: the web SDK turns server garbage collection on by default.</summary>
    private static Dictionary<string, string?> RuntimeSettings(string project)
    {
        var document = XDocument.Load(Path.Combine(RepositoryRoot, project));
        var settings = RuntimeProperties.ToDictionary(name => name, name => document.Descendants(name).LastOrDefault()?.Value.Trim());
        settings["Sdk"] = document.Root!.Attribute("Sdk")?.Value;
        return settings;
    }

    private static string RepositoryRoot { get; } = typeof(RuntimeSettingsTests).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
        .Single(a => a.Key == "RepositoryRoot").Value!;
}
