using System.Diagnostics;

namespace OrderService.Load.Shootout;

/// <summary>Publishes the service the shoot-out starts: the working tree's, and a baseline commit's for a side-by-side run.</summary>
public static class ServicePublisher
{
    public static async Task<string> CurrentAsync(ShootoutOptions options)
    {
        var output = Path.Combine(options.OutputDirectory, "service");
        Console.WriteLine($"Publishing src/OrderService (Release) to {output} ...");
        var clock = Stopwatch.StartNew();
        var dll = await ServiceProcess.PublishAsync(options.RepositoryRoot, output, options.ServiceArtifactsPath).ConfigureAwait(false);
        Console.WriteLine($"Published in {clock.Elapsed.TotalSeconds:F0} s.");
        return dll;
    }

    /// <summary>
    /// The service as it was at <paramref name="commit"/> (git archive of this repository, published like the current
    /// source), so that one run measures "before" and "now" under the same machine load.
    /// </summary>
    public static async Task<string> BaselineAsync(ShootoutOptions options, string commit)
    {
        var directory = Path.Combine(options.OutputDirectory, $"baseline-{commit}");
        var source = Path.Combine(directory, "src");
        Directory.CreateDirectory(source);
        var archive = Path.Combine(directory, "source.tar");
        Console.WriteLine($"Publishing src/OrderService at {commit} (the baseline) to {directory} ...");
        var clock = Stopwatch.StartNew();
        (await Shell.RunAsync("git", ["-C", options.RepositoryRoot, "archive", "--format=tar", "-o", archive, commit], TimeSpan.FromMinutes(2)).ConfigureAwait(false))
            .EnsureSuccess($"git archive {commit}");
        (await Shell.RunAsync("tar", ["-xf", archive, "-C", source], TimeSpan.FromMinutes(2)).ConfigureAwait(false)).EnsureSuccess("tar -x");
        var dll = await ServiceProcess.PublishAsync(source, Path.Combine(directory, "service"), Path.Combine(directory, "artifacts")).ConfigureAwait(false);
        Console.WriteLine($"Published the baseline in {clock.Elapsed.TotalSeconds:F0} s.");
        return dll;
    }
}
