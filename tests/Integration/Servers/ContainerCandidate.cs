using Docker.DotNet;
using DotNet.Testcontainers.Configurations;
using DotNet.Testcontainers.Containers;

namespace OrderService.Integration.Tests.Servers;

/// <summary>
/// A server in a container started with Testcontainers, when a Docker endpoint answers and the image is present
/// or can be pulled. Each way this fails (no endpoint, an endpoint that does not answer, a pull that fails, a
/// container that does not become ready) is a reason to fall through, never an error of the test run.
/// </summary>
/// <param name="image">The image, e.g. "postgres:15".</param>
/// <param name="build">Builds the not yet started container for the image on the endpoint.</param>
/// <param name="connectionString">The started container's connection string.</param>
/// <param name="dockerEndpoint">The Docker endpoint; null takes the one Testcontainers finds (DOCKER_HOST, ~/.testcontainers.properties, /var/run/docker.sock).</param>
public sealed class ContainerCandidate<TContainer>(string image, Func<string, Uri, TContainer> build, Func<TContainer, string> connectionString, Uri? dockerEndpoint = null)
    : ServerCandidate
    where TContainer : IContainer
{
    private static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(5);

    // A first pull of a database image, or SQL Server's first start, can take minutes on a slow line.
    private static readonly TimeSpan StartTimeout = TimeSpan.FromMinutes(10);

    public override string Name => $"Testcontainers ({image})";

    public override async Task<CandidateResult> TryStartAsync(CancellationToken cancellationToken)
    {
        var endpoint = dockerEndpoint ?? TestcontainersSettings.OS.DockerEndpointAuthConfig?.Endpoint ?? UndiscoveredEndpoint();
        if (endpoint is null)
        {
            return CandidateResult.Unavailable("no Docker endpoint answers (Testcontainers looked at DOCKER_HOST, ~/.testcontainers.properties and /var/run/docker.sock)");
        }

        bool imagePresent;
        using (var docker = new DockerClientBuilder().WithEndpoint(endpoint).WithTimeout(PingTimeout).Build())
        {
            try
            {
                using var ping = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                ping.CancelAfter(PingTimeout);
                await docker.System.PingAsync(ping.Token).ConfigureAwait(false);
                var engineApi = Version.Parse((await docker.System.GetVersionAsync(ping.Token).ConfigureAwait(false)).APIVersion);
                var clientApi = new DockerEndpointAuthenticationConfiguration(endpoint).Version;
                if (clientApi is not null && engineApi < clientApi)
                {
                    return CandidateResult.Unavailable(
                        $"Docker answers at {endpoint}, but with API {engineApi}, older than the {clientApi} Testcontainers asks for " +
                        $"(Docker Engine 25 or later); set DOCKER_API_VERSION={engineApi} to use this engine");
                }

                imagePresent = await IsPresentAsync(docker, ping.Token).ConfigureAwait(false);
            }
            catch (Exception exception) when (exception is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
            {
                return CandidateResult.Unavailable($"the Docker endpoint {endpoint} does not answer ({FirstLine(exception)})");
            }
        }

        var container = build(image, endpoint);
        try
        {
            using var start = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            start.CancelAfter(StartTimeout);
            await container.StartAsync(start.Token).ConfigureAwait(false);
            return CandidateResult.Started(connectionString(container), container);
        }
        catch (Exception exception) when (!cancellationToken.IsCancellationRequested)
        {
            await container.DisposeAsync().ConfigureAwait(false);
            var what = imagePresent
                ? $"the image {image} is present, but its container did not start"
                : $"the image {image} is not present and could not be pulled";
            return CandidateResult.Unavailable($"Docker answers at {endpoint}, but {what} ({FirstLine(exception)})");
        }
    }

    /// <summary>
    /// Testcontainers only reports an endpoint that answered its ping at the API version it asks for; an older
    /// engine is still worth naming in the reason, so look where it would have looked.
    /// </summary>
    private static Uri? UndiscoveredEndpoint()
    {
        if (Environment.GetEnvironmentVariable("DOCKER_HOST") is { Length: > 0 } host)
        {
            return new Uri(host);
        }

        const string socket = "/var/run/docker.sock";
        return File.Exists(socket) ? new Uri($"unix://{socket}") : null;
    }

    private async Task<bool> IsPresentAsync(DockerClient docker, CancellationToken cancellationToken)
    {
        try
        {
            await docker.Images.InspectImageAsync(image, cancellationToken).ConfigureAwait(false);
            return true;
        }
        catch (DockerImageNotFoundException)
        {
            return false;
        }
    }

    /// <summary>The exception and its cause on one line (Docker's own message says why a pull failed).</summary>
    private static string FirstLine(Exception exception)
    {
        var message = $"{exception.GetType().Name}: {exception.Message}";
        if (exception.InnerException is { } inner && !exception.Message.Contains(inner.Message, StringComparison.Ordinal))
        {
            message += $" <- {inner.GetType().Name}: {inner.Message}";
        }

        return string.Join(' ', message.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
    }
}
