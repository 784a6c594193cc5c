using System.Diagnostics;
using System.Globalization;
using System.Text;
using CliWrap;

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
    [
        "Store__", "ConnectionStrings__", "Resilience__", "Authentication__", "Authorization__", "OpenApi__",
        "RateLimiting__", "RequestTimeouts__", "ASPNETCORE_", "DOTNET_ENVIRONMENT", "OTEL_",
    ];

    /// <summary>
    /// What every test starter sets unless the test sets the key itself: tests send many requests from one address,
    /// which the rate limiter would answer with 429.
    /// </summary>
    public static readonly KeyValuePair<string, string> RateLimiterOff = new("RateLimiting:PermitLimit", "0");

    /// <summary>
    /// What a test's service runs with unless the test sets its own: no tokens. Outside Development the service
    /// refuses to start without an explicit choice, and a test of the store has nothing to do with tokens.
    /// </summary>
    public static readonly KeyValuePair<string, string> NoTokens = new("Authorization:Mode", "None");

    /// <summary>Whether <paramref name="keys"/> (Section:Key or Section__Key) already choose authorization.</summary>
    public static bool ChoosesAuthorization(IEnumerable<string> keys) => keys.Any(k =>
        k.TrimStart('-').Replace("__", ":", StringComparison.Ordinal) is var key
        && (key.StartsWith("Authorization:", StringComparison.OrdinalIgnoreCase)
            || key.StartsWith("Authentication:", StringComparison.OrdinalIgnoreCase)));

    private readonly BackgroundProcess _process;

    private OrderServiceProcess(BackgroundProcess process, HttpClient client)
    {
        _process = process;
        Client = client;
    }

    /// <summary>The service's OrderService.dll beside the running test assembly (a test project that references src/OrderService).</summary>
    public static string ServiceDll => Path.Combine(AppContext.BaseDirectory, "OrderService.dll");

    public HttpClient Client { get; }

    /// <summary>
    /// <c>dotnet <paramref name="serviceDll"/> <paramref name="arguments"/></c> in <paramref name="workingDirectory"/>,
    /// the machine's settings scrubbed and <paramref name="environment"/> set. A file that is not a .dll is a native
    /// executable (a Native AOT build) and is started itself.
    /// </summary>
    public static Command Command(
        string serviceDll, IEnumerable<string> arguments, string workingDirectory,
        IReadOnlyDictionary<string, string>? environment = null)
    {
        var isAssembly = serviceDll.EndsWith(".dll", StringComparison.OrdinalIgnoreCase);
        var variables = Environment.GetEnvironmentVariables().Keys.Cast<string>()
            .Where(k => SettingPrefixes.Any(p => k.StartsWith(p, StringComparison.OrdinalIgnoreCase)))
            .ToDictionary(k => k, _ => (string?)null);
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            variables[name] = value;
        }

        return Cli.Wrap(isAssembly ? "dotnet" : serviceDll)
            .WithArguments(isAssembly ? [serviceDll, .. arguments] : arguments)
            .WithWorkingDirectory(workingDirectory)
            .WithEnvironmentVariables(variables);
    }

    /// <summary>
    /// Starts the service on a free loopback port with <c>--Key=value</c> for each of <paramref name="settings"/>; ready
    /// once /health/ready answers 200 (within 60 s, or it is killed and this throws).
    /// </summary>
    public static Task<OrderServiceProcess> StartAsync(string workingDirectory, IReadOnlyDictionary<string, string> settings, CancellationToken cancellationToken) =>
        StartAsync(ServiceDll, workingDirectory, settings, cancellationToken);

    /// <summary>
    /// As above, for another build than <see cref="ServiceDll"/> (<paramref name="executable"/>, as
    /// <see cref="Command"/> takes it).
    /// </summary>
    public static async Task<OrderServiceProcess> StartAsync(string executable, string workingDirectory, IReadOnlyDictionary<string, string> settings, CancellationToken cancellationToken)
    {
        var port = FreePort.Loopback();
        var urls = string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}");
        var chosen = ChoosesAuthorization(settings.Keys) ? settings : settings.Append(NoTokens);
        var process = BackgroundProcess.Start(
            Command(executable, ["--urls", urls, .. WithRateLimiterOff(chosen).Select(s => $"--{s.Key}={s.Value}")],
                workingDirectory));
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
    /// another build than <see cref="ServiceDll"/>, as <see cref="Command"/> takes it.
    /// </summary>
    public static async Task<ServiceRun> RunAsync(
        IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? timeout = null, Func<string, bool>? stopWhenOutput = null,
        string? executable = null, CancellationToken cancellationToken = default)
    {
        var directory = Directory.CreateTempSubdirectory("orders-settings-").FullName;
        var output = new StringBuilder();
        var errors = new StringBuilder();
        var seen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        if (!ChoosesAuthorization(arguments.Concat(environment?.Keys ?? [])))
        {
            environment = new Dictionary<string, string>(environment ?? new Dictionary<string, string>())
            {
                [NoTokens.Key.Replace(":", "__", StringComparison.Ordinal)] = NoTokens.Value,
            };
        }

        var command = Command(executable ?? ServiceDll, arguments, directory, environment)
            .WithStandardOutputPipe(PipeTarget.ToDelegate(line =>
            {
                lock (output)
                {
                    output.AppendLine(line);
                }

                if (stopWhenOutput?.Invoke(line) == true)
                {
                    seen.TrySetResult();
                }
            }))
            .WithStandardErrorPipe(PipeTarget.ToStringBuilder(errors));
        var exitCode = -1;
        await using (var process = BackgroundProcess.Start(command))
        {
            var exited = process.WaitForExitAsync(cancellationToken);
            var limit = Task.Delay(timeout ?? TimeSpan.FromSeconds(60), cancellationToken);
            var finished = await Task.WhenAny(exited, seen.Task, limit);
            if (finished == exited)
            {
                exitCode = await exited;
            }
        }

        TryDelete(directory);
        lock (output)
        {
            return new ServiceRun(exitCode, output.ToString(), errors.ToString());
        }
    }

    private static IEnumerable<KeyValuePair<string, string>> WithRateLimiterOff(
        IEnumerable<KeyValuePair<string, string>> settings) =>
        settings.Any(s => string.Equals(s.Key, RateLimiterOff.Key, StringComparison.OrdinalIgnoreCase)) ? settings
            : settings.Append(RateLimiterOff);

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await _process.DisposeAsync();
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
