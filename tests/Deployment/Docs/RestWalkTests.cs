using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using CliWrap;
using CliWrap.Buffered;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// README's five-call walk, run as written: its bash block, unchanged but for the port, through bash and curl against
/// the service listening on Kestrel (SQLite, a file of its own). A changed route, header or body in the code, or a
/// broken line in README, leaves the order short of Completed and fails here.
/// </summary>
public sealed class RestWalkTests
{
    private const string DocumentedBase = "base=http://127.0.0.1:5000";

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact(Timeout = 180_000)]
    public async Task README_s_five_calls_take_an_order_from_create_to_completed()
    {
        var missing = new[] { "bash", "curl", "tr", "sed" }.Where(tool => !OnPath(tool)).ToList();
        if (missing.Count > 0)
        {
            Assert.Skip($"README's walk needs {string.Join(", ", missing)} on the PATH, which this machine lacks.");
        }

        var readme = MarkdownPage.Parse("README.md", Repository.Read("README.md"));
        var walk = readme.CodeBlocks.Single(b => b.Language == "bash" && b.Text.Contains(DocumentedBase, StringComparison.Ordinal) && b.Text.Contains("curl", StringComparison.Ordinal)).Text;

        var port = FreePort.Loopback();
        using var database = new ScratchSqliteFile();
        await using (var app = new WebApplicationFactory<Program>().WithWebHostBuilder(b =>
            b.UseEnvironment("Testing").UseSetting("Authorization:Mode", "None")
                .UseSetting("ConnectionStrings:Orders", database.ConnectionString)))
        {
            app.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));
            app.StartServer();

            var script = walk.Replace(DocumentedBase, $"base=http://127.0.0.1:{port}", StringComparison.Ordinal) + "\necho\necho \"id=$id\"\n";
            var output = await BashAsync(script);

            var id = output.Split('\n').Last(l => l.StartsWith("id=", StringComparison.Ordinal))[3..];
            Guid.TryParse(id, out _).ShouldBeTrue($"the create's Location gave no order id; the walk printed:\n{output}");
            foreach (var status in new[] { "Paid", "Shipped", "Completed" })
            {
                output.ShouldContain($"\"status\":\"{status}\"", Case.Sensitive, $"the walk printed:\n{output}");
            }

            using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") };
            var order = await client.GetFromJsonAsync<JsonObject>(new Uri($"/orders/{id}", UriKind.Relative), Ct);
            order!["status"]!.GetValue<string>().ShouldBe("Completed");
            order["version"]!.GetValue<int>().ShouldBe(4);
            order["events"]!.AsArray().Select(e => e!["type"]!.GetValue<string>()).ToArray().ShouldBe(new[] { "Created", "Paid", "Shipped", "Completed" });
        }
    }

    private static async Task<string> BashAsync(string script)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(Ct);
        timeout.CancelAfter(TimeSpan.FromSeconds(60));
        var bash = await Cli.Wrap("bash").WithArguments(["-c", script]).WithValidation(CommandResultValidation.None)
            .ExecuteBufferedAsync(timeout.Token);
        bash.ExitCode.ShouldBe(0, $"stderr: {bash.StandardError}\nstdout: {bash.StandardOutput}");
        return bash.StandardOutput;
    }

    private static bool OnPath(string tool) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator).Any(dir => File.Exists(Path.Combine(dir, tool)));
}
