using Microsoft.Extensions.Configuration;
using OrderService.Tools;
using Shouldly;
using Xunit;
using YamlDotNet.RepresentationModel;

namespace OrderService.Deployment.Tests;

/// <summary>
/// docs/configuration.md is the code, rendered (<see cref="ConfigurationReference"/>): these fail when the page and the
/// options classes differ, when a setting does not say what it means, when a key set in appsettings.json or deploy/k8s
/// is not in the reference, and when appsettings.json or the ConfigMap state a default other than the code's.
/// </summary>
public sealed class ConfigurationReferenceTests
{
    private const string Regenerate = $"Regenerate it from the repository root: {ConfigurationReference.RegenerateCommand}";

    /// <summary>The keys the ConfigMap sets to something other than the default, on purpose.</summary>
    private static readonly Dictionary<string, string> ConfigMapOverrides = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Store:Provider"] = "a cluster with more than one replica needs a shared database, not a SQLite file",
        ["OTEL_SERVICE_NAME"] = "the name the cluster's collector knows the service by",
    };

    [Fact]
    public void The_page_is_what_the_code_renders()
    {
        var path = Repository.PathOf(ConfigurationReference.PagePath.Split('/'));
        File.Exists(path).ShouldBeTrue($"{ConfigurationReference.PagePath} is missing. {Regenerate}");
        var page = File.ReadAllText(path).ReplaceLineEndings("\n");
        var date = ConfigurationReference.DateOf(page);
        date.ShouldNotBeNull($"{ConfigurationReference.PagePath} has lost its generated header. {Regenerate}");

        var rendered = ConfigurationReference.Render(AppSettings(), date.Value);

        if (page != rendered)
        {
            var pageLines = page.Split('\n');
            var renderedLines = rendered.Split('\n');
            var at = Enumerable.Range(0, Math.Max(pageLines.Length, renderedLines.Length))
                .First(i => i >= pageLines.Length || i >= renderedLines.Length || pageLines[i] != renderedLines[i]);
            Assert.Fail($"{ConfigurationReference.PagePath} differs from the options classes at line {at + 1}:\n" +
                $"  page: {(at < pageLines.Length ? pageLines[at] : "(end of file)")}\n" +
                $"  code: {(at < renderedLines.Length ? renderedLines[at] : "(end of file)")}\n{Regenerate}");
        }
    }

    [Fact]
    public void Every_setting_and_section_says_what_it_means()
    {
        var sections = ConfigurationReference.Sections(AppSettings());

        sections.SelectMany(s => s.Settings).Count().ShouldBeGreaterThan(30, "the reference walked every options class");
        var silent = sections.Where(s => s.Meaning is null).Select(s => $"section {s.Path} (a [Description] on its class)")
            .Concat(sections.SelectMany(s => s.Settings).Where(s => s.Meaning is null).Select(s => $"{s.Key} (a [Description] on its property)"))
            .ToList();
        silent.ShouldBeEmpty($"say in one line what each means, then regenerate ({ConfigurationReference.RegenerateCommand}): {string.Join(", ", silent)}");
    }

    [Fact]
    public void Every_key_of_appsettings_and_deploy_k8s_is_in_the_reference()
    {
        var reference = ConfigurationReference.Sections(AppSettings()).SelectMany(s => s.Settings).Select(s => s.Key.Split(':')).ToList();
        var appSettings = AppSettings();
        var configured = appSettings.AsEnumerable().Where(e => !appSettings.GetSection(e.Key).GetChildren().Any()).Select(e => (Source: "appsettings.json", e.Key))
            .Concat(KubernetesManifests.OfKind("ConfigMap").SelectMany(c => c.Object.Entries("data")).Select(e => (Source: "ConfigMap", e.Key)))
            .Concat(KubernetesManifests.OfKind("Secret").SelectMany(s => s.Object.Entries("stringData")).Select(e => (Source: "Secret", e.Key)))
            .Concat(KubernetesManifests.Containers.SelectMany(c => c.Items("env")).Select(e => (Source: "Deployment env", Key: e.Text("name")!)))
            .ToList();

        configured.Count.ShouldBeGreaterThan(40);
        var missing = configured.Where(c => !reference.Any(key => Matches(key, ToKey(c.Key)))).Select(c => $"{c.Key} ({c.Source})").ToList();
        missing.ShouldBeEmpty($"keys set but not in the reference; declare each on an options class with a [Description] " +
            $"(or among ConfigurationReference's host keys), then regenerate ({ConfigurationReference.RegenerateCommand}): {string.Join(", ", missing)}");
    }

    /// <summary>A default is written once, in the options class: appsettings.json may repeat it, not change it.</summary>
    [Fact]
    public void Appsettings_json_repeats_the_defaults_of_the_options_classes()
    {
        var fromClasses = Defaults(new ConfigurationBuilder().Build());
        var asStarted = Defaults(AppSettings());

        var changed = asStarted.Where(d => fromClasses[d.Key] != d.Value).Select(d => $"{d.Key}: class {fromClasses[d.Key]}, appsettings.json {d.Value}").ToList();
        changed.ShouldBeEmpty($"change a default in its options class, not in appsettings.json: {string.Join("; ", changed)}");
    }

    /// <summary>The ConfigMap shows each default (so an operator sees them in one place), except where it says otherwise on purpose.</summary>
    [Fact]
    public void The_ConfigMap_shows_the_defaults_but_where_it_overrides_them_on_purpose()
    {
        var defaults = ConfigurationReference.Sections(AppSettings()).SelectMany(s => s.Settings).ToDictionary(s => s.Key, s => s.Default, StringComparer.OrdinalIgnoreCase);
        var values = KubernetesManifests.OfKind("ConfigMap").SelectMany(c => c.Object.Entries("data"))
            .Select(e => (Key: ToKey(e.Key), Value: ((YamlScalarNode)e.Value).Value is { Length: > 0 } text ? text : "unset"))
            .Where(e => defaults.ContainsKey(e.Key) && !ConfigMapOverrides.ContainsKey(e.Key))
            .ToList();

        values.Count.ShouldBeGreaterThan(30);
        var differing = values.Where(e => !string.Equals(e.Value, defaults[e.Key], StringComparison.OrdinalIgnoreCase))
            .Select(e => $"{e.Key}: ConfigMap {e.Value}, default {defaults[e.Key]}").ToList();
        differing.ShouldBeEmpty($"deploy/k8s/configmap.yaml says these are the defaults: {string.Join("; ", differing)}");
    }

    private static IConfiguration AppSettings() =>
        new ConfigurationBuilder().AddJsonFile(Repository.PathOf("src", "OrderService", "appsettings.json"), optional: false).Build();

    /// <summary>The options classes' defaults (the host section aside: its defaults are appsettings.json's own).</summary>
    private static Dictionary<string, string> Defaults(IConfiguration configuration) =>
        ConfigurationReference.Sections(configuration).Where(s => s.Path != ConfigurationReference.HostSection)
            .SelectMany(s => s.Settings).ToDictionary(s => s.Key, s => s.Default, StringComparer.OrdinalIgnoreCase);

    private static string ToKey(string environmentVariable) => environmentVariable.Replace("__", ":", StringComparison.Ordinal);

    /// <summary>A configured key against a reference key, whose <c>*</c> stands for any one part (a list index, a log category).</summary>
    private static bool Matches(string[] reference, string key)
    {
        var parts = key.Split(':');
        return parts.Length == reference.Length
            && parts.Zip(reference).All(p => p.Second == OptionsReference.ListIndex || string.Equals(p.First, p.Second, StringComparison.OrdinalIgnoreCase));
    }
}
