using System.Net;
using Docker.DotNet;
using Docker.DotNet.Models;
using DotNet.Testcontainers;
using DotNet.Testcontainers.Builders;
using DotNet.Testcontainers.Configurations;
using DotNet.Testcontainers.Images;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>
/// Builds each of the repository's Dockerfiles (./Dockerfile, ReadyToRun; ./Dockerfile.native, Native AOT) and starts
/// the image: live, ready, one whole workflow over HTTP, the process running as the image's non-root user, and the
/// SQLite file on the /app/data volume. A build takes minutes (a NuGet restore and a ReadyToRun or Native AOT publish
/// inside Docker), so it runs only when asked: ORDERS_TEST_IMAGE=1. It needs
/// a Docker engine that answers Testcontainers and the Dockerfile's base images already present; nothing is pulled.
/// Otherwise it reports SKIPPED with the reason. The build uses the host network for its NuGet restore.
/// </summary>
public sealed class ContainerImageTests
{
    public const string OptInVariable = "ORDERS_TEST_IMAGE";

    private const ushort HttpPort = 8080;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory(Timeout = 1_800_000)]
    [MemberData(nameof(Dockerfile.Files), MemberType = typeof(Dockerfile))]
    public async Task The_image_builds_starts_serves_a_workflow_as_a_non_root_user_and_keeps_SQLite_on_its_volume(string file)
    {
        var dockerfile = Dockerfile.Named(file);
        if (Environment.GetEnvironmentVariable(OptInVariable) != "1")
        {
            Assert.Skip($"Building the image takes minutes, so the default run leaves it out: {OptInVariable}=1 runs it " +
                        "(with a Docker engine and the Dockerfile's base images present; DockerfileTests check the file itself).");
        }

        var endpoint = TestcontainersSettings.OS.DockerEndpointAuthConfig ?? throw Skip(
            "No Docker engine answers Testcontainers here (DOCKER_HOST, /var/run/docker.sock; an engine older than API 1.44 also " +
            "needs DOCKER_API_VERSION, which scripts/test.sh sets), so the image cannot be built.");
        using var docker = endpoint.GetDockerClientBuilder().Build();
        await SkipUnlessBaseImagesArePresentAsync(docker, dockerfile);

        // WithCleanUp(false): no Ryuk helper container (itself an image to pull); this test removes what it made,
        // including the untagged image the Dockerfile's build stage leaves behind (about 1.5 GB a run).
        var danglingBefore = await DanglingImagesAsync(docker);
        var buildOutput = new BuildOutput(ConsoleLogger.Instance);
        var image = new ImageFromDockerfileBuilder()
            .WithContextDirectory(Repository.Root)
            .WithDockerfileDirectory(Repository.Root)
            .WithDockerfile(dockerfile.FileName)
            .WithName($"orderservice-image-test:{Guid.NewGuid():N}")
            .WithCreateParameterModifier(build =>
            {
                build.NetworkMode = "host";

                // The legacy builder keeps a failed step's container (Exited (1)) unless told to remove it always.
                build.ForceRemove = true;
            })
            .WithCleanUp(false)
            .WithLogger(buildOutput)
            .Build();
        try
        {
            await image.CreateAsync(Ct);
        }
        catch (ImageBuildFailedException exception)
        {
            // A failed build leaves its finished stages behind as well.
            await RemoveImagesLeftByTheBuildAsync(docker, danglingBefore);
            Assert.Fail($"{exception.Message}\nThe build's last lines:\n{buildOutput.Tail}");
        }

        var container = new ContainerBuilder(image)
            .WithPortBinding(HttpPort, assignRandomHostPort: true)
            .WithEnvironment("Authorization__Mode", "None") // with no settings the image refuses to start
            .WithWaitStrategy(Wait.ForUnixContainer().UntilHttpRequestIsSucceeded(r => r.ForPort(HttpPort).ForPath(Probes.ReadinessPath)))
            .WithCleanUp(false)
            .Build();
        try
        {
            await container.StartAsync(Ct);
            using var http = new HttpClient { BaseAddress = new Uri($"http://{container.Hostname}:{container.GetMappedPublicPort(HttpPort)}") };

            (await http.GetAsync(new Uri(Probes.LivenessPath, UriKind.Relative), Ct)).StatusCode.ShouldBe(HttpStatusCode.OK);
            (await http.GetAsync(new Uri(Probes.ReadinessPath, UriKind.Relative), Ct)).StatusCode.ShouldBe(HttpStatusCode.OK);
            (await new OrderApi(http, Ct).RunWorkflowAsync("c-image")).Completed.Status.ShouldBe("Completed");

            var status = await container.ExecAsync(["cat", "/proc/1/status"], Ct);
            status.Stdout.Split('\n').Single(l => l.StartsWith("Uid:", StringComparison.Ordinal)).Split('\t', StringSplitOptions.RemoveEmptyEntries)[1]
                .ShouldBe(Dockerfile.AppUid, "the service process runs as the image's non-root user");
            var data = await container.ExecAsync(["stat", "-c", "%u %n", "/app/data/orders.db"], Ct);
            data.Stdout.Trim().ShouldBe($"{Dockerfile.AppUid} /app/data/orders.db", data.Stderr);
            var mounts = (await docker.Containers.InspectContainerAsync(container.Id, Ct)).Mounts;
            mounts.ShouldContain(m => m.Destination == "/app/data", "the SQLite folder is a volume, not the container's own layer");
        }
        finally
        {
            await container.DisposeAsync();
            try
            {
                // With clean-up off, disposing only stops it: remove it and its /app/data volume too.
                await docker.Containers.RemoveContainerAsync(container.Id, new ContainerRemoveParameters { Force = true, RemoveVolumes = true }, CancellationToken.None);
            }
            catch (Exception exception) when (exception is DockerContainerNotFoundException || string.IsNullOrEmpty(container.Id))
            {
                // Already gone, or never created.
            }

            await docker.Images.DeleteImageAsync(image.FullName, new ImageDeleteParameters { Force = true }, CancellationToken.None);
            await RemoveImagesLeftByTheBuildAsync(docker, danglingBefore);
        }
    }

    /// <summary>
    /// The build stage ends as an untagged image that no tag or container refers to. Only images that turned dangling
    /// during this test are removed: a user's own untagged images from before it stay.
    /// </summary>
    private static async Task RemoveImagesLeftByTheBuildAsync(DockerClient docker, IReadOnlySet<string> danglingBefore)
    {
        foreach (var id in (await DanglingImagesAsync(docker)).Except(danglingBefore))
        {
            try
            {
                await docker.Images.DeleteImageAsync(id, new ImageDeleteParameters { Force = true }, CancellationToken.None);
            }
            catch (DockerApiException exception)
            {
                Console.WriteLine($"Could not remove the build's image {id}: {exception.Message}");
            }
        }
    }

    private static async Task<IReadOnlySet<string>> DanglingImagesAsync(DockerClient docker)
    {
        var images = await docker.Images.ListImagesAsync(
            new ImagesListParameters { Filters = new Dictionary<string, IDictionary<string, bool>> { ["dangling"] = new Dictionary<string, bool> { ["true"] = true } } },
            CancellationToken.None);
        return images.Select(i => i.ID).ToHashSet();
    }

    private static async Task SkipUnlessBaseImagesArePresentAsync(DockerClient docker, Dockerfile dockerfile)
    {
        var stages = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var missing = new List<string>();
        foreach (var from in dockerfile.Text.Split('\n').Where(l => l.StartsWith("FROM ", StringComparison.Ordinal)).Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries)))
        {
            if (!stages.Contains(from[1]))
            {
                try
                {
                    await docker.Images.InspectImageAsync(from[1], Ct);
                }
                catch (DockerImageNotFoundException)
                {
                    missing.Add(from[1]);
                }
            }

            if (from.Length >= 4 && from[2].Equals("AS", StringComparison.OrdinalIgnoreCase))
            {
                stages.Add(from[3]);
            }
        }

        if (missing.Count > 0)
        {
            throw Skip($"{dockerfile.FileName}'s base images are not present here ({string.Join(", ", missing)}); this test never pulls. " +
                       $"docker pull {string.Join(" && docker pull ", missing)} to run it.");
        }
    }

    private static Exception Skip(string reason)
    {
        Assert.Skip(reason);
        return new InvalidOperationException(reason);
    }
}
