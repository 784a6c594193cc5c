using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>
/// N OrderService processes on one database, each on its own port, with one HTTP client per process. They start one
/// after the other, so that only one of them at a time creates the schema, and stop together.
/// </summary>
public sealed class ServiceReplicas : IAsyncDisposable
{
    private readonly List<ServiceProcess> _processes = [];
    private readonly List<HttpClient> _clients = [];
    private readonly List<OrderApi> _apis = [];

    private ServiceReplicas()
    {
    }

    public IReadOnlyList<ServiceProcess> Processes => _processes;

    /// <summary>One API client per process, in start order (the driver picks one per workflow part).</summary>
    public IReadOnlyList<OrderApi> Apis => _apis;

    /// <summary>The first process: the one a crash run kills (crash runs use a single replica).</summary>
    public ServiceProcess First => _processes[0];

    /// <summary>Each process's CPU time so far, in start order.</summary>
    public IReadOnlyList<TimeSpan?> CpuTimes => [.. _processes.Select(p => p.CpuTime)];

    /// <summary>The largest peak resident set of the processes so far, in MB (each replica is a machine's worth), or null when none can tell.</summary>
    public double? PeakMemoryMegabytes => _processes.Select(p => p.PeakMemoryMegabytes).Max();

    /// <summary>The processes' CPU time summed, or null when any of them cannot tell.</summary>
    public TimeSpan? CpuTime
    {
        get
        {
            var total = TimeSpan.Zero;
            foreach (var process in _processes)
            {
                if (process.CpuTime is not { } cpu)
                {
                    return null;
                }

                total += cpu;
            }

            return total;
        }
    }

    /// <summary>Starts <paramref name="count"/> processes; each logs to <paramref name="logPath"/> (with ".2", ".3" ... before the extension for the others).</summary>
    public static async Task<ServiceReplicas> StartAsync(
        int count, string serviceDll, IReadOnlyDictionary<string, string> environment, string logPath, int connectionsPerReplica, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        var replicas = new ServiceReplicas();
        try
        {
            for (var i = 0; i < count; i++)
            {
                var service = await ServiceProcess.StartAsync(serviceDll, environment, LogPath(logPath, i), cancellationToken).ConfigureAwait(false);
                replicas._processes.Add(service);
                var http = OrderApi.CreateHttpClient(service.BaseAddress, connectionsPerReplica);
                replicas._clients.Add(http);
                replicas._apis.Add(new OrderApi(http));
            }

            return replicas;
        }
        catch
        {
            await replicas.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    public async Task StopAsync()
    {
        await Task.WhenAll(_processes.Select(p => p.StopAsync())).ConfigureAwait(false);
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients)
        {
            client.Dispose();
        }

        foreach (var process in _processes)
        {
            await process.DisposeAsync().ConfigureAwait(false);
        }
    }

    private static string LogPath(string logPath, int index) =>
        index == 0 ? logPath : Path.ChangeExtension(logPath, $"{index + 1}{Path.GetExtension(logPath)}");
}
