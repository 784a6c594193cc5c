using System.Text.Json;
using Shouldly;
using Xunit;
using YamlDotNet.RepresentationModel;

namespace OrderService.Deployment.Tests;

/// <summary>
/// docker-compose.yml, statically: valid against the Compose schema (dclint), every service health-checked, every
/// dependency waiting for health, and the service's telemetry going to the collector in the file. The checks are
/// about every service, whatever the services are, so adding one (a MongoDB, say) needs no edit here.
/// </summary>
public sealed class ComposeFileTests
{
    private static readonly YamlMappingNode Compose = Yaml.Documents(Repository.Read("docker-compose.yml")).Single();

    private static IEnumerable<(string Name, YamlNode Service)> Services => Compose.Entries("services");

    [Fact]
    public async Task It_passes_dclint_with_no_errors_and_no_warnings()
    {
        NodeTools.Require(NodeTools.Dclint, "dclint 3.1.0");

        var (_, output, error) = await NodeTools.RunAsync(NodeTools.Dclint, ["--formatter", "json", "docker-compose.yml"]);

        var messages = JsonDocument.Parse(output).RootElement.EnumerateArray().SelectMany(f => f.GetProperty("messages").EnumerateArray())
            .Select(m => $"{m.GetProperty("type").GetString()} line {m.GetProperty("line").GetInt32()}: {m.GetProperty("message").GetString()} ({m.GetProperty("rule").GetString()})")
            .ToList();
        messages.ShouldBeEmpty($"dclint: {string.Join("\n", messages)} {error}");
    }

    [Fact]
    public void Every_service_has_a_healthcheck_that_runs_a_command()
    {
        Services.ShouldNotBeEmpty();
        foreach (var (name, service) in Services)
        {
            var check = service.Get("healthcheck");
            check.ShouldNotBeNull($"service {name} has no healthcheck");
            check.Text("disable").ShouldNotBe("true", $"service {name} disables its healthcheck");
            var test = check.Items("test").Select(t => ((YamlScalarNode)t).Value).ToList();
            test.Count.ShouldBeGreaterThan(1, $"service {name}: healthcheck.test is not a command");
            test[0].ShouldBeOneOf(["CMD", "CMD-SHELL"], $"service {name}");
        }
    }

    [Fact]
    public void Every_dependency_waits_until_the_service_it_needs_is_healthy()
    {
        var names = Services.Select(s => s.Name).ToHashSet(StringComparer.Ordinal);
        var dependencies = Services.SelectMany(s => s.Service.Entries("depends_on").Select(d => (From: s.Name, To: d.Key, d.Value))).ToList();

        dependencies.ShouldNotBeEmpty();
        dependencies.ShouldAllBe(d => names.Contains(d.To));
        foreach (var (from, to, value) in dependencies)
        {
            value.Text("condition").ShouldBe("service_healthy", $"{from} depends on {to}");
        }

        Service(AppServiceName).Entries("depends_on").Select(d => d.Key).ShouldContain(CollectorServiceName);
    }

    [Fact]
    public void The_service_exports_telemetry_over_OTLP_to_the_collector_of_the_file()
    {
        var endpoint = new Uri(Environment(AppServiceName)["OTEL_EXPORTER_OTLP_ENDPOINT"]);

        endpoint.Host.ShouldBe(CollectorServiceName);
        var collector = Service(CollectorServiceName);
        var config = Yaml.Documents(Repository.Read(collector.Text("build", "context")!, "config.yaml")).Single();
        var receiverPorts = config.Entries("receivers", "otlp", "protocols")
            .Select(p => int.Parse(p.Value.Text("endpoint")!.Split(':')[^1], System.Globalization.CultureInfo.InvariantCulture));
        receiverPorts.ShouldContain(endpoint.Port, "the OTLP endpoint's port is one the collector receives on");
        config.Items("service", "pipelines", "traces", "receivers").Select(r => ((YamlScalarNode)r).Value).ShouldContain("otlp");
        (File.ReadAllText(Repository.PathOf(collector.Text("build", "context")!, "Dockerfile")))
            .ShouldContain("FROM otel/opentelemetry-collector-contrib:");
    }

    [Fact]
    public void The_service_s_healthcheck_probes_its_readiness_route_on_its_port()
    {
        var test = string.Join(' ', Service(AppServiceName).Items("healthcheck", "test").Select(t => ((YamlScalarNode)t).Value));

        test.ShouldContain(Probes.ReadinessPath);
        test.ShouldContain($"/{Environment(AppServiceName)["ASPNETCORE_HTTP_PORTS"]}");
    }

    [Fact]
    public void Every_environment_key_of_the_service_is_one_the_app_reads()
    {
        var unknown = Environment(AppServiceName).Keys.Where(k => !AppConfiguration.IsKnown(k)).ToList();

        unknown.ShouldBeEmpty($"keys no options class (or the host) reads: {string.Join(", ", unknown)}");
    }

    /// <summary>The service built from this repository's Dockerfile.</summary>
    private static string AppServiceName => Services.Single(s => s.Service.Text("build", "context") == "." && s.Service.Text("build", "dockerfile") == "Dockerfile").Name;

    /// <summary>The service that runs an OpenTelemetry collector.</summary>
    private static string CollectorServiceName => Services.Single(s => s.Service.Text("build", "context") is { } context && File.Exists(Repository.PathOf(context, "config.yaml")) &&
        File.ReadAllText(Repository.PathOf(context, "Dockerfile")).Contains("opentelemetry-collector", StringComparison.Ordinal)).Name;

    private static YamlNode Service(string name) => Compose.Path("services", name)!;

    private static Dictionary<string, string> Environment(string service) =>
        Service(service).Entries("environment").ToDictionary(e => e.Key, e => ((YamlScalarNode)e.Value).Value ?? "", StringComparer.Ordinal);
}
