using System.Diagnostics;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>
/// The npm validators (dclint, kubernetes-models; versions in validators/package.json) that scripts/test.sh installs
/// into ORDERS_TEST_NODE_TOOLS (default: artifacts/node-tools). They run offline. Without them a test skips with the
/// reason; scripts/test.sh installs them whenever npm is there, so a skip there means npm is absent.
/// </summary>
internal static class NodeTools
{
    public const string DirectoryVariable = "ORDERS_TEST_NODE_TOOLS";

    public static string Directory => Environment.GetEnvironmentVariable(DirectoryVariable) is { Length: > 0 } given
        ? given
        : Repository.PathOf("artifacts", "node-tools");

    public static string Dclint => Path.Combine(Directory, "node_modules", ".bin", "dclint");

    public static string KubernetesModels => Path.Combine(Directory, "node_modules", "kubernetes-models", "package.json");

    /// <summary>Skips the calling test, with the reason, when the tool is not installed.</summary>
    public static void Require(string file, string tool)
    {
        if (!File.Exists(file))
        {
            Assert.Skip($"{tool} is not installed in {Directory} (scripts/test.sh installs it with npm, which was absent; or run " +
                        $"'npm ci --prefix <dir>' with tests/Deployment/validators/package.json there and set {DirectoryVariable}=<dir>).");
        }
    }

    /// <summary>Runs a program to its end and returns its exit code and output.</summary>
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(string file, IEnumerable<string> arguments, string? input = null)
    {
        var start = new ProcessStartInfo(file)
        {
            RedirectStandardInput = input is not null,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Repository.Root,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {file}.");
        if (input is not null)
        {
            await process.StandardInput.WriteAsync(input);
            process.StandardInput.Close();
        }

        var output = process.StandardOutput.ReadToEndAsync(TestContext.Current.CancellationToken);
        var error = process.StandardError.ReadToEndAsync(TestContext.Current.CancellationToken);
        await process.WaitForExitAsync(TestContext.Current.CancellationToken);
        return (process.ExitCode, await output, await error);
    }
}
