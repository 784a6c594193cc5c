using CliWrap;
using CliWrap.Buffered;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>
/// The npm validators (dclint, kubernetes-models; pinned by validators/package-lock.json), installed the way
/// scripts/test.sh installs every npm tool the tests run: npm ci into a folder of their own,
/// ORDERS_TEST_DEPLOYMENT_VALIDATORS (default: artifacts/deployment-validators). They run offline. Like the OpenAPI
/// lint test: without npm a test that needs them skips, with the reason; with npm but no install, it fails and says how.
/// </summary>
internal static class NodeTools
{
    public const string DirectoryVariable = "ORDERS_TEST_DEPLOYMENT_VALIDATORS";

    public static string Directory => Environment.GetEnvironmentVariable(DirectoryVariable) is { Length: > 0 } given
        ? given
        : Repository.PathOf("artifacts", "deployment-validators");

    public static string Dclint => Path.Combine(Directory, "node_modules", ".bin", "dclint");

    public static string KubernetesModels => Path.Combine(Directory, "node_modules", "kubernetes-models", "package.json");

    /// <summary>Skips the calling test when npm (and so the tool) is absent; fails it, saying how to install, when only the install is missing.</summary>
    public static void Require(string file, string tool)
    {
        if (File.Exists(file))
        {
            return;
        }

        if (!OnPath("npm") || !OnPath("node"))
        {
            Assert.Skip($"{tool} comes from npm, and Node.js with npm is not installed here: install Node.js 20+ with npm, then run scripts/test.sh.");
        }

        Assert.Fail($"{tool} is not installed in {Directory}: run scripts/test.sh, or cp tests/Deployment/validators/package*.json " +
                    $"{Directory}/ && npm ci --ignore-scripts --prefix {Directory} (and set {DirectoryVariable} when it is not the default).");
    }

    /// <summary>Runs a program to its end and returns its exit code and output.</summary>
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(string file, IEnumerable<string> arguments, string? input = null)
    {
        var result = await Cli.Wrap(file)
            .WithArguments(arguments)
            .WithWorkingDirectory(Repository.Root)
            .WithStandardInputPipe(input is null ? PipeSource.Null : PipeSource.FromString(input))
            // No update check: the run must not depend on anything beyond this machine.
            .WithEnvironmentVariables(variables => variables.Set("NO_UPDATE_NOTIFIER", "1"))
            .WithValidation(CommandResultValidation.None)
            .ExecuteBufferedAsync(TestContext.Current.CancellationToken);
        return (result.ExitCode, result.StandardOutput, result.StandardError);
    }

    private static bool OnPath(string command) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator).Any(dir => File.Exists(Path.Combine(dir, command)));
}
