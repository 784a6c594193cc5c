using System.Diagnostics;
using Xunit;

namespace OrderService.Integration.Tests.Settings;

/// <summary>
/// The built service started as an operator starts it, <c>dotnet OrderService.dll --Key=value</c>, in a
/// scratch working directory, with none of this machine's Store__/ConnectionStrings__/... variables leaking in.
/// </summary>
internal sealed record ServiceRun(int ExitCode, string StandardOutput, string StandardError)
{
    private static readonly string[] SettingPrefixes = ["Store__", "ConnectionStrings__", "Resilience__", "Payments__", "ASPNETCORE_", "DOTNET_ENVIRONMENT", "OTEL_"];

    public static string ServiceDll => Path.Combine(AppContext.BaseDirectory, "OrderService.dll");

    public IReadOnlyList<string> ErrorLines => StandardError.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>Runs the service until it exits (a bad setting) or <paramref name="timeout"/> passes (then it is killed: exit code -1).</summary>
    public static async Task<ServiceRun> StartAsync(IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? timeout = null, Func<string, bool>? stopWhenOutput = null)
    {
        var directory = Directory.CreateTempSubdirectory("orders-settings-").FullName;
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(ServiceDll);
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

        using var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the service.");
        var output = new System.Text.StringBuilder();
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
        var errors = process.StandardError.ReadToEndAsync(TestContext.Current.CancellationToken);
        var exited = process.WaitForExitAsync(TestContext.Current.CancellationToken);
        var finished = await Task.WhenAny(exited, seen.Task, Task.Delay(timeout ?? TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken));
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
