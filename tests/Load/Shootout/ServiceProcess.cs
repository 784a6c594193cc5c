using System.Diagnostics;
using CliWrap;
using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>
/// OrderService as a real process: the published build, started with `dotnet OrderService.dll --urls`
/// and the variant's configuration in environment variables, the way an operator deploys it.
/// Its console output goes to a log file beside the report.
/// </summary>
public sealed class ServiceProcess : IAsyncDisposable
{
    private readonly string _serviceDll;
    private readonly IReadOnlyDictionary<string, string> _environment;
    private readonly string _logPath;
    private BackgroundProcess? _process;
    private StreamWriter? _log;

    private ServiceProcess(string serviceDll, int port, IReadOnlyDictionary<string, string> environment, string logPath)
    {
        _serviceDll = serviceDll;
        _environment = environment;
        _logPath = logPath;
        BaseAddress = new Uri($"http://127.0.0.1:{port}/");
    }

    public Uri BaseAddress { get; }

    /// <summary>The service's process id while it runs.</summary>
    public int? ProcessId => _process?.Id;

    /// <summary>The service's CPU time so far (user + system, from /proc), or null when it is not running or /proc cannot tell.</summary>
    public TimeSpan? CpuTime => _process is { } process ? ProcessCpu.Of(process.Id) : null;

    /// <summary>The service's peak resident set so far, in MB (VmHWM), or null when it is not running or /proc cannot tell.</summary>
    public double? PeakMemoryMegabytes => _process is { } process ? ProcessMemory.PeakMegabytes(process.Id) : null;

    /// <summary>The service's threads and their CPU time so far, or null when it is not running or /proc cannot tell.</summary>
    public ThreadCpu.Snapshot? Threads => _process is { } process ? ThreadCpu.Of(process.Id) : null;

    /// <summary>dotnet publish once per harness run; every variant starts the same binary.</summary>
    public static async Task<string> PublishAsync(string repositoryRoot, string outputDirectory, string? artifactsPath)
    {
        var project = Path.Combine(repositoryRoot, "src", "OrderService", "OrderService.csproj");
        // The binary a user deploys: ReadyToRun, as the Dockerfile publishes it (seed 002: a faster cold start).
        List<string> arguments = ["publish", project, "-c", "Release", "-o", outputDirectory, "--nologo", "-v", "quiet",
            "-r", System.Runtime.InteropServices.RuntimeInformation.RuntimeIdentifier, "--self-contained", "false", "-p:PublishReadyToRun=true"];
        if (artifactsPath is not null)
        {
            arguments.AddRange(["--artifacts-path", artifactsPath]);
        }

        (await Shell.RunAsync("dotnet", arguments, TimeSpan.FromMinutes(10)).ConfigureAwait(false)).EnsureSuccess("dotnet publish src/OrderService");
        return Path.Combine(outputDirectory, "OrderService.dll");
    }

    public static async Task<ServiceProcess> StartAsync(string serviceDll, IReadOnlyDictionary<string, string> environment, string logPath, CancellationToken cancellationToken)
    {
        var service = new ServiceProcess(serviceDll, FreePort.Loopback(), environment, logPath);
        try
        {
            await service.LaunchAsync(cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            // A service that never became ready is still running: the caller gets no handle to stop it.
            await service.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        return service;
    }

    /// <summary>kill -9 on the service (the SQLite crash: the database lives in this process), then start it again on the same port.</summary>
    public async Task CrashAndRestartAsync(TimeSpan downtime, CancellationToken cancellationToken)
    {
        if (_process is { } process)
        {
            Shell.KillTreeHard(process.Id);
            await process.DisposeAsync().ConfigureAwait(false);
            _process = null;
            await WriteLogAsync($"--- harness: kill -9 at {DateTimeOffset.UtcNow:O} ---").ConfigureAwait(false);
        }

        await Task.Delay(downtime, cancellationToken).ConfigureAwait(false);
        await LaunchAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Stops the service politely (SIGTERM, so it can close its store), then hard after a grace period.</summary>
    public async Task StopAsync()
    {
        if (_process is not { } process)
        {
            return;
        }

        _process = null;
        if (!process.HasExited)
        {
            await Shell.RunAsync("kill", ["-TERM", process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)], TimeSpan.FromSeconds(10)).ConfigureAwait(false);
            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(15));
            try
            {
                await process.WaitForExitAsync(grace.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                // Still running after the grace period: disposing kills it.
            }
        }

        await process.DisposeAsync().ConfigureAwait(false);
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync().ConfigureAwait(false);
        if (_log is { } log)
        {
            _log = null;
            lock (log)
            {
                log.Dispose();
            }
        }
    }

    private async Task LaunchAsync(CancellationToken cancellationToken)
    {
        _log ??= new StreamWriter(_logPath, append: true) { AutoFlush = true };
        // The variant's settings only: none of this machine's own (Store__, OTEL_, ...) leak in.
        var log = PipeTarget.ToDelegate(WriteLine);
        var urls = BaseAddress.ToString().TrimEnd('/');
        var folder = Path.GetDirectoryName(_serviceDll)!;
        var command = OrderServiceProcess.Command(_serviceDll, ["--urls", urls], folder, _environment)
            .WithStandardOutputPipe(log)
            .WithStandardErrorPipe(log);
        var process = BackgroundProcess.Start(command);
        _process = process;
        await WaitUntilReadyAsync(process, cancellationToken).ConfigureAwait(false);
    }

    private async Task WaitUntilReadyAsync(BackgroundProcess process, CancellationToken cancellationToken)
    {
        using var http = new HttpClient { BaseAddress = BaseAddress, Timeout = TimeSpan.FromSeconds(5) };
        var api = new OrderApi(http);
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromSeconds(90))
        {
            if (process.HasExited)
            {
                var exitCode = await process.WaitForExitAsync(cancellationToken).ConfigureAwait(false);
                throw new InvalidOperationException(
                    $"OrderService exited with code {exitCode} before it was ready; see {_logPath}.");
            }

            if (await api.IsReadyAsync(cancellationToken).ConfigureAwait(false))
            {
                return;
            }

            await Task.Delay(100, cancellationToken).ConfigureAwait(false);
        }

        throw new TimeoutException($"OrderService did not answer /health/ready within 90 s; see {_logPath}.");
    }

    private void WriteLine(string? line)
    {
        var log = _log;
        if (line is null || log is null)
        {
            return;
        }

        lock (log)
        {
            try
            {
                log.WriteLine(line);
            }
            catch (ObjectDisposedException)
            {
                // A last line from an exiting process after the run closed the log.
            }
        }
    }

    private Task WriteLogAsync(string line)
    {
        WriteLine(line);
        return Task.CompletedTask;
    }
}
