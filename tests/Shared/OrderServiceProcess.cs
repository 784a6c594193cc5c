using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace OrderService.Testing;

/// <summary>
/// The built service as its own process, started as an operator starts it: <c>dotnet OrderService.dll</c> with
/// its settings as arguments or environment variables, and none of this machine's own settings leaking in (every
/// variable that starts with one of <see cref="SettingPrefixes"/> is removed before the caller's are added).
/// <c>StartAsync</c> keeps it running until disposed (it kills this process by its own handle and nothing
/// else); <see cref="RunAsync"/> runs it to its exit.
/// </summary>
public sealed class OrderServiceProcess : IAsyncDisposable
{
    /// <summary>The prefixes of the environment variables the service reads settings from.</summary>
    public static readonly IReadOnlyList<string> SettingPrefixes =
        ["Store__", "ConnectionStrings__", "Resilience__", "Authentication__", "ASPNETCORE_", "DOTNET_ENVIRONMENT", "OTEL_"];

    private readonly Process _process;

    private OrderServiceProcess(Process process, HttpClient client)
    {
        _process = process;
        Client = client;
    }

    /// <summary>The service's OrderService.dll beside the running test assembly (a test project that references src/OrderService).</summary>
    public static string ServiceDll => Path.Combine(AppContext.BaseDirectory, "OrderService.dll");

    public HttpClient Client { get; }

    /// <summary>
    /// <c>dotnet <paramref name="serviceDll"/> <paramref name="arguments"/></c> in <paramref name="workingDirectory"/>, output
    /// redirected, the machine's settings scrubbed and <paramref name="environment"/> set. A file that is not a .dll is a native
    /// executable (a Native AOT build) and is started itself.
    /// </summary>
    public static ProcessStartInfo StartInfo(string serviceDll, IEnumerable<string> arguments, string workingDirectory, IReadOnlyDictionary<string, string>? environment = null)
    {
        var isAssembly = serviceDll.EndsWith(".dll", StringComparison.OrdinalIgnoreCase);
        var start = new ProcessStartInfo(isAssembly ? "dotnet" : serviceDll)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (isAssembly)
        {
            start.ArgumentList.Add(serviceDll);
        }

        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var name in start.Environment.Keys.Where(k => SettingPrefixes.Any(p => k.StartsWith(p, StringComparison.OrdinalIgnoreCase))).ToList())
        {
            start.Environment.Remove(name);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        return start;
    }

    /// <summary>
    /// Starts the service on a free loopback port with <c>--Key=value</c> for each of <paramref name="settings"/>; ready
    /// once /health/ready answers 200 (within 60 s, or it is killed and this throws).
    /// </summary>
    public static Task<OrderServiceProcess> StartAsync(string workingDirectory, IReadOnlyDictionary<string, string> settings, CancellationToken cancellationToken) =>
        StartAsync(ServiceDll, workingDirectory, settings, cancellationToken);

    /// <summary>As above, for another build than <see cref="ServiceDll"/> (<paramref name="executable"/>, as <see cref="StartInfo"/> takes it).</summary>
    public static async Task<OrderServiceProcess> StartAsync(string executable, string workingDirectory, IReadOnlyDictionary<string, string> settings, CancellationToken cancellationToken)
    {
        var port = FreePort.Loopback();
        var start = StartInfo(executable, ["--urls", string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}"), .. settings.Select(s => $"--{s.Key}={s.Value}")], workingDirectory);
        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the service.");
        process.OutputDataReceived += static (_, _) => { };
        process.ErrorDataReceived += static (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(30) };
        var service = new OrderServiceProcess(process, client);
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromSeconds(60) && !process.HasExited)
        {
            try
            {
                using var ready = await client.GetAsync("/health/ready", cancellationToken);
                if (ready.IsSuccessStatusCode)
                {
                    return service;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            await Task.Delay(200, cancellationToken);
        }

        await service.DisposeAsync();
        throw new InvalidOperationException($"The service on port {port} did not become ready within 60 s.");
    }

    /// <summary>
    /// Runs the service in a scratch working directory until it exits (a bad setting), <paramref name="stopWhenOutput"/>
    /// matches a line of its output, or <paramref name="timeout"/> passes (then it is killed: exit code -1). <paramref name="executable"/>:
    /// another build than <see cref="ServiceDll"/>, as <see cref="StartInfo"/> takes it.
    /// </summary>
    public static async Task<ServiceRun> RunAsync(
        IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? timeout = null, Func<string, bool>? stopWhenOutput = null,
        string? executable = null, CancellationToken cancellationToken = default)
    {
        var directory = Directory.CreateTempSubdirectory("orders-settings-").FullName;
        using var process = Process.Start(StartInfo(executable ?? ServiceDll, arguments, directory, environment)) ?? throw new InvalidOperationException("Could not start the service.");
        var output = new StringBuilder();
        var seen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        process.OutputDataReceived += (_, line) =>
        {
            if (line.Data is null)
            {
                return;
            }

            lock (output)
            {
                output.AppendLine(line.Data);
            }

            if (stopWhenOutput?.Invoke(line.Data) == true)
            {
                seen.TrySetResult();
            }
        };
        process.BeginOutputReadLine();
        var errors = process.StandardError.ReadToEndAsync(cancellationToken);
        var exited = process.WaitForExitAsync(cancellationToken);
        var finished = await Task.WhenAny(exited, seen.Task, Task.Delay(timeout ?? TimeSpan.FromSeconds(60), cancellationToken));
        var exitCode = -1;
        if (finished == exited)
        {
            exitCode = process.ExitCode;
        }
        else
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None);
        }

        process.WaitForExit(); // flushes the redirected output
        TryDelete(directory);
        var standardError = await errors;
        lock (output)
        {
            return new ServiceRun(exitCode, output.ToString(), standardError);
        }
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync(CancellationToken.None);
        }

        _process.Dispose();
    }

    private static void TryDelete(string directory)
    {
        try
        {
            Directory.Delete(directory, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}

/// <summary>How a run of <see cref="OrderServiceProcess.RunAsync"/> ended: its exit code (-1: killed) and its output.</summary>
public sealed record ServiceRun(int ExitCode, string StandardOutput, string StandardError)
{
    public IReadOnlyList<string> ErrorLines => StandardError.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
