using YamlDotNet.RepresentationModel;

namespace OrderService.Deployment.Tests;

/// <summary>deploy/k8s, parsed: every object with the file it came from.</summary>
internal static class KubernetesManifests
{
    public static string Directory => Repository.PathOf("deploy", "k8s");

    public const string KustomizationFile = "kustomization.yaml";

    public static IReadOnlyList<string> Files => [.. System.IO.Directory.GetFiles(Directory, "*.yaml").Select(Path.GetFileName).Order(StringComparer.Ordinal)!];

    /// <summary>Every Kubernetes object (the kustomization is kustomize's file, not an object of the cluster).</summary>
    public static IReadOnlyList<(string File, YamlMappingNode Object)> Objects { get; } =
        [.. Files.Where(f => f != KustomizationFile).SelectMany(f => Yaml.Documents(File.ReadAllText(Path.Combine(Directory, f))).Select(d => (f, d)))];

    public static YamlMappingNode Kustomization => Yaml.Documents(File.ReadAllText(Path.Combine(Directory, KustomizationFile))).Single();

    public static IEnumerable<(string File, YamlMappingNode Object)> OfKind(string kind) => Objects.Where(o => o.Object.Text("kind") == kind);

    public static YamlMappingNode Deployment => OfKind("Deployment").Single().Object;

    public static IReadOnlyList<YamlNode> Containers => Deployment.Items("spec", "template", "spec", "containers");

    public static YamlNode AppContainer => Containers.Single();

    public static IReadOnlyList<YamlNode> Volumes => Deployment.Items("spec", "template", "spec", "volumes");

    /// <summary>Each Secret the pod mounts, with its volume (a secret one, or a source of a projected one).</summary>
    public static IEnumerable<(string Volume, string Secret)> SecretVolumes => Volumes.SelectMany(v =>
        v.Items("projected", "sources").Select(s => s.Text("secret", "name")).Append(v.Text("secret", "secretName"))
            .OfType<string>().Select(secret => (v.Text("name")!, secret)));

    /// <summary>ConnectionStrings__Orders as secret.example.yaml shows it.</summary>
    public static string ExampleConnectionString => OfKind("Secret")
        .SelectMany(s => s.Object.Entries("stringData")).Single(e => e.Key == "ConnectionStrings__Orders").Value
        .Text()!;
}

/// <summary>The health routes the orchestrators probe, as deploy/k8s states them (tests check the app answers them).</summary>
internal static class Probes
{
    public static string LivenessPath => KubernetesManifests.AppContainer.Text("livenessProbe", "httpGet", "path")!;

    public static string ReadinessPath => KubernetesManifests.AppContainer.Text("readinessProbe", "httpGet", "path")!;
}
