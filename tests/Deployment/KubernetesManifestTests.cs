using System.Globalization;
using System.Net;
using System.Security.Cryptography;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.KeyPerFile;
using Microsoft.Extensions.DependencyInjection;
using Shouldly;
using Xunit;
using YamlDotNet.RepresentationModel;

namespace OrderService.Deployment.Tests;

/// <summary>
/// deploy/k8s, statically (no cluster runs here): every object valid against the Kubernetes schemas of
/// kubernetes-models, and the files in agreement with the app and with each other. Written over every object of a
/// kind, so objects and keys added later are checked without an edit here.
/// </summary>
public sealed partial class KubernetesManifestTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Every_object_validates_against_the_Kubernetes_schemas()
    {
        var results = await ValidateAsync(KubernetesManifests.Objects.Select(o => (o.File, o.Object.ToJson()!)));

        results.Count.ShouldBe(KubernetesManifests.Objects.Count);
        var errors = results.Where(r => r.Error is not null).Select(r => $"{r.Source} {r.Kind} {r.Name}: {r.Error}").ToList();
        errors.ShouldBeEmpty(string.Join("\n", errors));
    }

    [Fact]
    public async Task The_schema_check_rejects_a_string_replica_count_and_a_misspelled_container_port()
    {
        var deployment = KubernetesManifests.Deployment.ToJson()!.AsObject();
        var quotedReplicas = deployment.DeepClone().AsObject();
        quotedReplicas["spec"]!["replicas"] = "2";
        var misspelledPort = deployment.DeepClone().AsObject();
        var port = misspelledPort["spec"]!["template"]!["spec"]!["containers"]![0]!["ports"]![0]!.AsObject();
        port["containerPortt"] = port["containerPort"]!.DeepClone();
        port.Remove("containerPort");

        var results = await ValidateAsync([("replicas", quotedReplicas), ("port", misspelledPort)]);

        results[0].Error.ShouldNotBeNull().ShouldContain("replicas");
        results[1].Error.ShouldNotBeNull().ShouldContain("containerPort");
    }

    [Fact]
    public void The_kustomization_lists_every_file_but_itself_and_the_examples()
    {
        var listed = KubernetesManifests.Kustomization.Items("resources").Select(r => ((YamlScalarNode)r).Value!).ToList();
        var expected = KubernetesManifests.Files.Where(f => f != KubernetesManifests.KustomizationFile && !f.EndsWith(".example.yaml", StringComparison.Ordinal));

        listed.Order(StringComparer.Ordinal).ShouldBe(expected);
    }

    [Fact]
    public void Every_Secret_is_an_example_with_placeholder_values_that_apply_k_never_deploys()
    {
        var secrets = KubernetesManifests.OfKind("Secret").ToList();
        var listed = KubernetesManifests.Kustomization.Items("resources").Select(r => ((YamlScalarNode)r).Value).ToHashSet();
        // A value that is no secret may be real (the signing key's Issuer is the Deployment's ValidIssuer); any other is a placeholder.
        var publicValues = KubernetesManifests.OfKind("ConfigMap").SelectMany(c => c.Object.Entries("data").Select(e => ((YamlScalarNode)e.Value).Value))
            .Concat(KubernetesManifests.Containers.SelectMany(c => c.Items("env")).Select(e => e.Text("value")))
            .OfType<string>().ToHashSet(StringComparer.Ordinal);

        secrets.ShouldNotBeEmpty("the example shows the Secret the Deployment reads");
        foreach (var (file, secret) in secrets)
        {
            file.ShouldEndWith(".example.yaml");
            listed.ShouldNotContain(file);
            secret.Entries("data").ShouldBeEmpty("an example holds no encoded (unreadable) values");
            secret.Entries("stringData").ShouldNotBeEmpty();
            foreach (var (key, value) in secret.Entries("stringData").Select(e => (e.Key, ((YamlScalarNode)e.Value).Value!)))
            {
                (value.Contains("change-me", StringComparison.Ordinal) || publicValues.Contains(value))
                    .ShouldBeTrue($"{file} {key}: '{value}' is neither a change-me placeholder nor a value the ConfigMap or the env shows openly");
            }

            secret.Entries("stringData").ShouldContain(e => ((YamlScalarNode)e.Value).Value!.Contains("change-me", StringComparison.Ordinal), $"{file} has no placeholder");
        }

        KubernetesManifests.SecretVolumes.Select(v => v.Secret)
            .ShouldBeSubsetOf(secrets.Select(s => s.Object.Text("metadata", "name")!));
    }

    [Fact]
    public void Every_configured_environment_key_exists_in_the_app_s_options()
    {
        var keys = KubernetesManifests.OfKind("ConfigMap").SelectMany(c => c.Object.Entries("data").Select(e => e.Key))
            .Concat(KubernetesManifests.OfKind("Secret").SelectMany(s => s.Object.Entries("stringData").Select(e => e.Key)))
            .Concat(KubernetesManifests.Containers.SelectMany(c => c.Items("env")).Select(e => e.Text("name")!))
            .ToList();

        keys.ShouldNotBeEmpty();
        AppConfiguration.KnownKeys.ShouldContain("Store:Provider", "the reflection over the options classes found them");
        var unknown = keys.Where(k => !AppConfiguration.IsKnown(k)).ToList();
        unknown.ShouldBeEmpty($"keys no options class (or the host) reads: {string.Join(", ", unknown)}");

        var configMaps = KubernetesManifests.OfKind("ConfigMap").Select(c => c.Object.Text("metadata", "name")).ToList();
        KubernetesManifests.Containers.SelectMany(c => c.Items("envFrom")).Select(e => e.Text("configMapRef", "name")).OfType<string>()
            .ShouldBeSubsetOf(configMaps!);
    }

    /// <summary>The ConfigMap is where an operator finds every store and resilience setting, with its default.</summary>
    [Theory]
    [InlineData("Store")]
    [InlineData("Resilience")]
    public void The_ConfigMap_carries_every_key_of_the_section(string section)
    {
        var configured = KubernetesManifests.OfKind("ConfigMap").SelectMany(c => c.Object.Entries("data"))
            .Select(e => e.Key.Replace("__", ":", StringComparison.Ordinal)).ToHashSet(StringComparer.OrdinalIgnoreCase);
        var keys = AppConfiguration.KeysOf(section).ToList();

        keys.ShouldNotBeEmpty($"the options classes have a {section} section");
        var missing = keys.Where(k => !configured.Contains(k)).ToList();
        missing.ShouldBeEmpty($"{section} keys the ConfigMap leaves out: {string.Join(", ", missing)}");
    }

    /// <summary>
    /// The app configured as the Deployment configures it, authorization included (its env, and the auth Secret with a
    /// real key in place of the placeholder): the probe paths answer 200 without a token while an order call needs one.
    /// The store stays a scratch SQLite file: no PostgreSQL server is the ConfigMap's here.
    /// </summary>
    [Fact]
    public async Task The_probe_paths_answer_200_without_a_token_from_the_app_configured_as_the_Deployment_is()
    {
        var paths = new[] { "livenessProbe", "readinessProbe", "startupProbe" }
            .Select(p => KubernetesManifests.AppContainer.Text(p, "httpGet", "path")).OfType<string>().Distinct().ToList();
        var settings = KubernetesManifests.Containers.SelectMany(c => c.Items("env")).Select(e => (Key: e.Text("name")!, Value: e.Text("value") ?? ""))
            .Concat(KubernetesManifests.OfKind("Secret").SelectMany(s => s.Object.Entries("stringData"))
                .Where(e => !e.Key.StartsWith("ConnectionStrings__", StringComparison.Ordinal))
                .Select(e => (e.Key, Value: ((YamlScalarNode)e.Value).Value!.Contains("change-me", StringComparison.Ordinal)
                    ? Convert.ToBase64String(RandomNumberGenerator.GetBytes(32))
                    : ((YamlScalarNode)e.Value).Value!)))
            .ToList();
        settings.ShouldContain(s => s.Key.StartsWith("Authentication__", StringComparison.Ordinal), "deploy/k8s turns authorization on");
        var database = Path.Combine(Path.GetTempPath(), $"orders-probe-{Guid.NewGuid():N}.db");
        try
        {
            // 'Testing', as the other test hosts: a developer's appsettings.Development.json or user secrets stay out.
            await using var app = new WebApplicationFactory<Program>().WithWebHostBuilder(b =>
            {
                b.UseEnvironment("Testing").UseSetting("ConnectionStrings:Orders", $"Data Source={database}");
                foreach (var (key, value) in settings)
                {
                    b.UseSetting(key.Replace("__", ":", StringComparison.Ordinal), value);
                }
            });
            using var client = app.CreateClient();
            var configuration = (IConfigurationRoot)app.Services.GetRequiredService<IConfiguration>();
            configuration.Providers.OfType<KeyPerFileConfigurationProvider>()
                .ShouldNotBeEmpty("the app reads settings from files, as the Deployment mounts its Secrets");

            paths.Count.ShouldBeGreaterThanOrEqualTo(2);
            foreach (var path in paths)
            {
                (await client.GetAsync(new Uri(path, UriKind.Relative), Ct)).StatusCode.ShouldBe(HttpStatusCode.OK, path);
            }

            // Not found, or refused by the fallback policy before routing could say so: either fails a probe.
            using var wrong = await client.GetAsync(new Uri("/health/nowhere", UriKind.Relative), Ct);
            wrong.IsSuccessStatusCode.ShouldBeFalse("a wrong path would fail the probe");
            (await client.GetAsync(new Uri("/orders/00000000-0000-0000-0000-000000000001", UriKind.Relative), Ct)).StatusCode
                .ShouldBe(HttpStatusCode.Unauthorized, "authorization is on, as in the cluster");
        }
        finally
        {
            SqliteConnection.ClearAllPools();
            foreach (var file in Directory.GetFiles(Path.GetTempPath(), Path.GetFileName(database) + "*"))
            {
                File.Delete(file);
            }
        }
    }

    [Fact]
    public void The_container_port_is_the_one_the_image_listens_on_and_the_probes_and_the_Service_use_it()
    {
        var container = KubernetesManifests.AppContainer;
        var port = container.Items("ports").Single();
        var number = port.Text("containerPort")!;
        var name = port.Text("name");

        number.ShouldBe(Dockerfile.Default.HttpPort, "the image's ASPNETCORE_HTTP_PORTS");
        container.Items("env").Select(e => e.Text("name")).ShouldNotContain("ASPNETCORE_HTTP_PORTS", "the port stays the image's");
        foreach (var probe in new[] { "livenessProbe", "readinessProbe", "startupProbe" }.Where(p => container.Get(p) is not null))
        {
            container.Text(probe, "httpGet", "port").ShouldBeOneOf([number, name], probe);
        }

        foreach (var (_, service) in KubernetesManifests.OfKind("Service"))
        {
            service.Items("spec", "ports").Select(p => p.Text("targetPort")).ShouldAllBe(t => t == number || t == name);
        }
    }

    [Fact]
    public void Images_are_pinned_by_tag()
    {
        foreach (var container in KubernetesManifests.Containers)
        {
            var image = container.Text("image")!;
            var tag = image.Contains('@', StringComparison.Ordinal) ? "digest" : image[(image.LastIndexOf('/') + 1)..].Split(':').ElementAtOrDefault(1);
            tag.ShouldNotBeNullOrEmpty($"{image} has no tag");
            tag.ShouldNotBe("latest", image);
        }
    }

    [Fact]
    public void Pods_run_as_the_image_s_non_root_user_without_privilege_escalation()
    {
        var pod = KubernetesManifests.Deployment.Path("spec", "template", "spec", "securityContext");

        pod.Text("runAsNonRoot").ShouldBe("true");
        int.Parse(pod.Text("runAsUser")!, CultureInfo.InvariantCulture).ShouldBeGreaterThan(0);
        pod.Text("runAsUser").ShouldBe(Dockerfile.AppUid, "the UID the image's files belong to");
        foreach (var container in KubernetesManifests.Containers)
        {
            container.Text("securityContext", "allowPrivilegeEscalation").ShouldBe("false");
            var runAsUser = container.Text("securityContext", "runAsUser") ?? pod.Text("runAsUser");
            runAsUser.ShouldNotBe("0", "the container's own runAsUser, else the pod's");
            container.Items("securityContext", "capabilities", "drop").Select(c => ((YamlScalarNode)c).Value).ShouldContain("ALL");
        }
    }

    [Fact]
    public void Every_container_has_cpu_and_memory_requests_and_limits()
    {
        foreach (var container in KubernetesManifests.Containers)
        {
            foreach (var (section, resource) in new[] { ("requests", "cpu"), ("requests", "memory"), ("limits", "cpu"), ("limits", "memory") })
            {
                container.Text("resources", section, resource).ShouldNotBeNullOrEmpty($"{container.Text("name")} {section}.{resource}");
            }
        }
    }

    [Fact]
    public void A_disruption_budget_and_an_autoscaler_cover_the_Deployment_and_agree()
    {
        var deployment = KubernetesManifests.Deployment;
        var budget = KubernetesManifests.OfKind("PodDisruptionBudget").Single().Object;
        var autoscaler = KubernetesManifests.OfKind("HorizontalPodAutoscaler").Single().Object;

        ShouldSelectThePods(budget.Path("spec", "selector"));
        autoscaler.Text("spec", "scaleTargetRef", "kind").ShouldBe("Deployment");
        autoscaler.Text("spec", "scaleTargetRef", "name").ShouldBe(deployment.Text("metadata", "name"));
        var minReplicas = int.Parse(autoscaler.Text("spec", "minReplicas")!, CultureInfo.InvariantCulture);
        var minAvailable = int.Parse(budget.Text("spec", "minAvailable")!, CultureInfo.InvariantCulture);
        minAvailable.ShouldBeLessThan(minReplicas, "the budget must let a drain evict one pod");
        int.Parse(autoscaler.Text("spec", "maxReplicas")!, CultureInfo.InvariantCulture).ShouldBeGreaterThanOrEqualTo(minReplicas);
    }

    private static void ShouldSelectThePods(YamlNode? selector)
    {
        var podLabels = KubernetesManifests.Deployment.Entries("spec", "template", "metadata", "labels")
            .ToDictionary(l => l.Key, l => l.Value.Text());
        selector.Entries("matchLabels").ShouldNotBeEmpty();
        selector.Entries("matchLabels").ShouldAllBe(l => podLabels.GetValueOrDefault(l.Key) == l.Value.Text());
    }

    private static async Task<List<ValidationResult>> ValidateAsync(IEnumerable<(string Source, JsonNode Object)> objects)
    {
        NodeTools.Require(NodeTools.KubernetesModels, "kubernetes-models 5.1.0");
        var input = new JsonArray([.. objects.Select(o => new JsonObject { ["source"] = o.Source, ["object"] = o.Object.DeepClone() })]);
        var script = Repository.PathOf("tests", "Deployment", "validators", "validate-k8s.mjs");

        var (exitCode, output, error) = await NodeTools.RunAsync("node", [script, NodeTools.Directory], input.ToJsonString());

        exitCode.ShouldBe(0, error);
        return JsonSerializer.Deserialize<List<ValidationResult>>(output, new JsonSerializerOptions(JsonSerializerDefaults.Web))!;
    }

    private sealed record ValidationResult(string Source, string? Kind, string? Name, string? Error);
}
