using System.Text.Json.Nodes;
using CliWrap;
using CliWrap.Buffered;
using OrderService.Integration.Tests.Authorization;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>
/// /openapi/v1.json passes Redocly CLI's `recommended` ruleset and Spectral's `spectral:oas` with 0 errors, with
/// authorization off (Redocly's security-defined off: there is no security to define) and on (security-defined on).
/// The linters come from tests/OpenApiLint/package-lock.json; scripts/test.sh installs them with npm ci.
///
/// The warnings are pinned one by one, so a new one fails the test by name. Those left, and why:
/// <list type="bullet">
/// <item>Redocly info-license and Spectral info-contact: the project has not chosen a licence or a contact
/// address; the document should not invent one.</item>
/// <item>Redocly operation-4xx-response on GET /health/live and /health/ready: a probe takes no input, so no
/// 4xx exists to declare; declaring a 404 just to please the rule would be false.</item>
/// </list>
/// </summary>
public sealed class OpenApiLintTests(ApiHost host, AuthorizedSqlite authorized) : IClassFixture<ApiHost>, IClassFixture<AuthorizedSqlite>
{
    private static readonly string[] ExpectedRedoclyWarnings =
    [
        "info-license at #/info",
        "operation-4xx-response at #/paths/~1health~1live/get/responses",
        "operation-4xx-response at #/paths/~1health~1ready/get/responses",
    ];

    private static readonly string[] ExpectedSpectralWarnings = ["info-contact at info"];

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public Task With_authorization_off_both_linters_find_no_error() => LintAsync(host.Client, securityDefined: false);

    [Fact]
    public Task With_authorization_on_both_linters_find_no_error() => LintAsync(authorized.Client, securityDefined: true);

    private static async Task LintAsync(HttpClient client, bool securityDefined)
    {
        var tools = LintTools.Find();
        var directory = Directory.CreateTempSubdirectory("openapi-lint-").FullName;
        try
        {
            var document = Path.Combine(directory, "v1.json");
            // The server URL echoes the request's host. The test host's "localhost" trips Redocly's
            // no-server-example.com, which a deployment never sees, so ask as the run command of README.md#run-it
            // (`dotnet run --urls http://127.0.0.1:5000`) would be asked.
            using var request = new HttpRequestMessage(HttpMethod.Get, "http://127.0.0.1:5000/openapi/v1.json");
            if (securityDefined)
            {
                request.Headers.Authorization = new("Bearer", TestTokens.Operator()); // tokens on: needed here too
            }

            using var response = await client.SendAsync(request, Ct);
            var text = await response.EnsureSuccessStatusCode().Content.ReadAsStringAsync(Ct);
            await File.WriteAllTextAsync(document, text, Ct);

            var redoclyArguments = new List<string> { "lint", "--extends", "recommended", "--format", "json", document };
            if (!securityDefined)
            {
                redoclyArguments.AddRange(["--skip-rule", "security-defined"]);
            }

            var redocly = JsonNode.Parse(await tools.RunAsync("redocly", redoclyArguments))!;
            var redoclyProblems = redocly["problems"]!.AsArray()
                .Select(p => (Severity: p!["severity"]!.GetValue<string>(), Text: $"{p["ruleId"]} at {p["location"]![0]!["pointer"]}"))
                .ToList();

            var spectral = JsonNode.Parse(await tools.RunAsync("spectral", ["lint", "--ruleset", tools.SpectralRuleset, "--format", "json", "--fail-severity", "error", document]))!;
            var spectralProblems = spectral.AsArray()
                .Select(p => (Severity: p!["severity"]!.GetValue<int>(), Text: $"{p["code"]} at {string.Join('.', p["path"]!.AsArray().Select(s => s!.ToString()))}"))
                .ToList();

            redoclyProblems.Where(p => p.Severity == "error").Select(p => p.Text).ShouldBeEmpty("Redocly errors");
            spectralProblems.Where(p => p.Severity == 0).Select(p => p.Text).ShouldBeEmpty("Spectral errors");
            redoclyProblems.Where(p => p.Severity == "warn").Select(p => p.Text).Order().ToArray().ShouldBe(ExpectedRedoclyWarnings, customMessage: "Redocly warnings (each justified in the class comment)");
            spectralProblems.Where(p => p.Severity == 1).Select(p => p.Text).Order().ToArray().ShouldBe(ExpectedSpectralWarnings, customMessage: "Spectral warnings (each justified in the class comment)");
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }
}

/// <summary>The installed linters: ORDERS_TEST_OPENAPI_LINT (scripts/test.sh sets it) or artifacts/openapi-lint.</summary>
internal sealed class LintTools(string root, string ruleset)
{
    public string SpectralRuleset { get; } = ruleset;

    /// <summary>Skips the test when npm is missing; fails it, saying how to install, when npm is there but the linters are not.</summary>
    public static LintTools Find()
    {
        var repository = Repository.Root;
        var installed = Environment.GetEnvironmentVariable("ORDERS_TEST_OPENAPI_LINT") is { Length: > 0 } configured
            ? configured
            : Path.Combine(repository, "artifacts", "openapi-lint");
        var tools = new LintTools(installed, Path.Combine(repository, "tests", "OpenApiLint", ".spectral.yaml"));
        if (!File.Exists(tools.Binary("redocly")) || !File.Exists(tools.Binary("spectral")))
        {
            if (!OnPath("npm"))
            {
                Assert.Skip("npm is not installed, so the OpenAPI linters (Redocly CLI, Spectral) cannot be: install Node.js 20+ with npm, then run scripts/test.sh.");
            }

            Assert.Fail($"The OpenAPI linters are not installed in {installed}: run scripts/test.sh, or cp tests/OpenApiLint/package*.json {installed}/ && npm ci --ignore-scripts --prefix {installed}");
        }

        return tools;
    }

    /// <summary>Runs a linter and returns its stdout (JSON); a crash or a time-out fails the test with its stderr.</summary>
    public async Task<string> RunAsync(string tool, IEnumerable<string> arguments)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        timeout.CancelAfter(TimeSpan.FromMinutes(3));
        var run = await Cli.Wrap(Binary(tool))
            .WithArguments(arguments)
            // No telemetry and no update check: the run must not depend on anything beyond this machine.
            .WithEnvironmentVariables(variables => variables
                .Set("REDOCLY_TELEMETRY", "off")
                .Set("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true")
                .Set("NO_UPDATE_NOTIFIER", "1"))
            .WithValidation(CommandResultValidation.None)
            .ExecuteBufferedAsync(timeout.Token);

        // Both exit 1 when they find errors; the assertions report those. Anything else, or no JSON, is a crash.
        var output = run.StandardOutput;
        if (run.ExitCode is not (0 or 1) || !output.TrimStart().StartsWith('{') && !output.TrimStart().StartsWith('['))
        {
            Assert.Fail($"{tool} exited {run.ExitCode}: {run.StandardError}\n{output}");
        }

        return output;
    }

    private string Binary(string tool) => Path.Combine(root, "node_modules", ".bin", tool);

    private static bool OnPath(string command) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator).Any(dir => File.Exists(Path.Combine(dir, command)));
}
