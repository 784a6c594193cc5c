using System.Diagnostics;
using System.Globalization;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Replicas;

/// <summary>
/// The built service as its own process (<c>dotnet OrderService.dll --urls http://127.0.0.1:port --Key=value</c>), with
/// none of this machine's Store__/ConnectionStrings__ variables leaking in; ready once /health/ready answers 200.
/// Disposing kills this process (by its own handle) and nothing else.
/// </summary>
internal sealed class ServiceProcess : IAsyncDisposable
{
    private static readonly string[] SettingPrefixes = ["Store__", "ConnectionStrings__", "Resilience__", "Payments__", "Authentication__", "ASPNETCORE_", "DOTNET_ENVIRONMENT", "OTEL_"];
    private readonly Process _process;

    private ServiceProcess(Process process, HttpClient client)
    {
        _process = process;
        Client = client;
    }

    public HttpClient Client { get; }

    public static async Task<ServiceProcess> StartAsync(string workingDirectory, IReadOnlyDictionary<string, string> settings)
    {
        var port = ThrowawayPostgres.FreeLoopbackPort();
        var start = new ProcessStartInfo("dotnet") { WorkingDirectory = workingDirectory, UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "OrderService.dll"));
        start.ArgumentList.Add("--urls");
        start.ArgumentList.Add(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}"));
        foreach (var (key, value) in settings)
        {
            start.ArgumentList.Add($"--{key}={value}");
        }

        foreach (var name in start.Environment.Keys.Where(k => SettingPrefixes.Any(p => k.StartsWith(p, StringComparison.OrdinalIgnoreCase))).ToList())
        {
            start.Environment.Remove(name);
        }

        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the service.");
        process.OutputDataReceived += static (_, _) => { };
        process.ErrorDataReceived += static (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(30) };
        var service = new ServiceProcess(process, client);
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromSeconds(60) && !process.HasExited)
        {
            try
            {
                using var ready = await client.GetAsync("/health/ready", TestContext.Current.CancellationToken);
                if (ready.IsSuccessStatusCode)
                {
                    return service;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            await Task.Delay(200, TestContext.Current.CancellationToken);
        }

        await service.DisposeAsync();
        throw new InvalidOperationException($"The service on port {port} did not become ready within 60 s.");
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
}
