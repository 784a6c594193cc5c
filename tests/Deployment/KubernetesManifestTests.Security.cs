using System.Globalization;
using Npgsql;
using OrderService.ServiceDefaults;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>deploy/k8s's fences: secrets as files, a verified database certificate, no API token, a NetworkPolicy.</summary>
public sealed partial class KubernetesManifestTests
{
    [Fact]
    public void Secrets_reach_the_app_as_read_only_files_where_it_reads_them_never_as_environment()
    {
        var container = KubernetesManifests.AppContainer;
        container.Items("envFrom").Select(e => e.Text("secretRef", "name")).OfType<string>()
            .ShouldBeEmpty("env shows a secret to every child process");
        container.Items("env").Select(e => e.Text("valueFrom", "secretKeyRef", "name")).OfType<string>()
            .ShouldBeEmpty();

        var mount = container.Items("volumeMounts")
            .Where(m => m.Text("mountPath") == ServiceDefaultsExtensions.SecretsDirectory)
            .ShouldHaveSingleItem("one volume at the directory the app reads its key-per-file settings from");
        mount.Text("readOnly").ShouldBe("true");
        KubernetesManifests.SecretVolumes.Where(v => v.Volume == mount.Text("name")).Select(v => v.Secret).ShouldBe(
            KubernetesManifests.OfKind("Secret").Select(s => s.Object.Text("metadata", "name")!), ignoreOrder: true);
        var volume = KubernetesManifests.Volumes.Single(v => v.Text("name") == mount.Text("name"));
        var mode = int.Parse(volume.Text("projected", "defaultMode") ?? volume.Text("secret", "defaultMode") ?? "420",
            CultureInfo.InvariantCulture);
        (mode & 0b111).ShouldBe(0, "no other user of the node's files may read them (the default, 0644, lets them)");
    }

    [Fact]
    public void The_PostgreSQL_example_verifies_the_server_s_certificate_against_a_CA_the_pod_mounts()
    {
        var example = new NpgsqlConnectionStringBuilder(KubernetesManifests.ExampleConnectionString);

        example.SslMode.ShouldBe(SslMode.VerifyFull);
        var ca = example.RootCertificate.ShouldNotBeNull("the CA a private server certificate is checked against");
        var mount = KubernetesManifests.AppContainer.Items("volumeMounts")
            .Where(m => ca.StartsWith(m.Text("mountPath") + "/", StringComparison.Ordinal))
            .ShouldHaveSingleItem($"a volume holds {ca}");
        mount.Text("readOnly").ShouldBe("true");
        KubernetesManifests.Volumes.Select(v => v.Text("name")).ShouldContain(mount.Text("name"));
    }

    [Fact]
    public void The_pod_runs_as_its_own_ServiceAccount_without_an_API_token()
    {
        var account = KubernetesManifests.OfKind("ServiceAccount").ShouldHaveSingleItem().Object;
        var pod = KubernetesManifests.Deployment.Path("spec", "template", "spec");

        account.Text("automountServiceAccountToken").ShouldBe("false");
        pod.Text("serviceAccountName").ShouldBe(account.Text("metadata", "name"));
        pod.Text("automountServiceAccountToken").ShouldBe("false", "the pod's own setting wins over its account's");
    }

    [Fact]
    public void A_NetworkPolicy_lets_in_only_the_service_port_and_out_only_the_database_and_DNS()
    {
        var policy = KubernetesManifests.OfKind("NetworkPolicy").ShouldHaveSingleItem().Object;
        var port = KubernetesManifests.AppContainer.Items("ports").Single();
        var database = new NpgsqlConnectionStringBuilder(KubernetesManifests.ExampleConnectionString);

        ShouldSelectThePods(policy.Path("spec", "podSelector"));
        policy.Items("spec", "policyTypes").Select(t => t.Text()).ShouldBe(["Ingress", "Egress"], ignoreOrder: true);
        var ingress = policy.Items("spec", "ingress");
        ingress.ShouldNotBeEmpty();
        foreach (var rule in ingress)
        {
            rule.Items("ports").ShouldNotBeEmpty("a rule without ports admits every port");
            rule.Items("ports").Select(p => p.Text("port"))
                .ShouldAllBe(p => p == port.Text("containerPort") || p == port.Text("name"));
        }

        var egress = policy.Items("spec", "egress");
        egress.ShouldAllBe(rule => rule.Items("to").Count > 0 && rule.Items("ports").Count > 0,
            "a rule without 'to' or ports lets out anything");
        egress.SelectMany(r => r.Items("ports")).Select(p => $"{p.Text("port")}/{p.Text("protocol") ?? "TCP"}")
            .ShouldBe([$"{database.Port}/TCP", "53/UDP", "53/TCP"], ignoreOrder: true);
        var toDatabase = egress.Single(r => r.Items("ports").Any(p => p.Text("port") == $"{database.Port}"));
        toDatabase.Items("to").Select(t => t.Text("namespaceSelector", "matchLabels", "kubernetes.io/metadata.name"))
            .ShouldBe([database.Host!.Split('.')[1]], "the example Host's namespace (<service>.<namespace>.svc)");
    }
}
