using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>
/// The Native AOT build (docs/cold-start.md#native-aot) as an operator runs it, from its own folder: the whole workflow
/// and the error contract on SQLite and on PostgreSQL (a throwaway cluster, both layouts), its settings checked as the
/// regular build checks them (they walk the options classes by reflection, which trimming would silently break), and
/// the stores it leaves out named as absent.
/// </summary>
public sealed class NativeAotTests(NativeAotBuild build) : IClassFixture<NativeAotBuild>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact(Timeout = 900_000)]
    public async Task The_native_build_runs_the_workflow_and_the_error_contract_on_SQLite()
    {
        build.SkipUnlessBuilt();
        var data = Directory.CreateTempSubdirectory("orders-native-aot-data-").FullName;
        try
        {
            await RunWorkflowAndErrorsAsync(new Dictionary<string, string> { ["ConnectionStrings:Orders"] = $"Data Source={Path.Combine(data, "orders.db")}" });
        }
        finally
        {
            Directory.Delete(data, recursive: true);
        }
    }

    // No Store trait: where clang is missing these skip, and scripts/test.sh fails a run whose PostgreSQL tests skip.
    [Theory(Timeout = 900_000)]
    [InlineData("Relational")]
    [InlineData("Document")]
    public async Task The_native_build_runs_the_workflow_and_the_error_contract_on_PostgreSQL(string layout)
    {
        build.SkipUnlessBuilt();
        await using var postgres = await ThrowawayPostgres.StartAsync(Ct);
        var database = await postgres.CreateDatabaseAsync("native_aot", Ct);

        await RunWorkflowAndErrorsAsync(new Dictionary<string, string>
        {
            ["Store:Provider"] = "PostgreSql",
            ["Store:Layout"] = layout,
            ["ConnectionStrings:Orders"] = database,
        });
    }

    private async Task RunWorkflowAndErrorsAsync(Dictionary<string, string> settings)
    {
        settings["OpenApi:Enabled"] = "true";
        await using var service = await OrderServiceProcess.StartAsync(build.Executable, build.Folder, settings, Ct);
        var http = service.Client;

        var (location, completed) = await new OrderApi(http, Ct).RunWorkflowAsync("native");
        var id = completed.Id.ToString();
        location.ShouldBe($"/orders/{id}");
        (await Post(http, $"/orders/{id}/complete", null)).ShouldBe(HttpStatusCode.Conflict);

        var order = await http.GetFromJsonAsync<JsonObject>($"/orders/{id}", Ct);
        order!["status"]!.GetValue<string>().ShouldBe("Completed");
        order["events"]!.AsArray().Select(e => e!["type"]!.GetValue<string>()).ShouldBe(["Created", "Paid", "Shipped", "Completed"]);

        using var batch = await http.PostAsJsonAsync("/orders/batch", new { ids = new[] { id, Guid.NewGuid().ToString() } }, Ct);
        (await batch.Content.ReadFromJsonAsync<JsonArray>(Ct))!.Count.ShouldBe(1);
        (await http.GetFromJsonAsync<JsonArray>("/customers/native/orders?status=Completed", Ct))!.Count.ShouldBe(1);

        using var invalid = await http.PostAsJsonAsync("/orders", new { customerId = "", lines = Array.Empty<object>() }, Ct);
        invalid.StatusCode.ShouldBe(HttpStatusCode.BadRequest);
        invalid.Content.Headers.ContentType!.MediaType.ShouldBe("application/problem+json");
        (await Json(invalid))["errors"]!.AsObject().Select(e => e.Key).ShouldBe(["customerId", "lines"], ignoreOrder: true);
        (await http.GetAsync("/orders/not-a-guid", Ct)).StatusCode.ShouldBe(HttpStatusCode.BadRequest);
        (await http.GetAsync($"/orders/{Guid.NewGuid()}", Ct)).StatusCode.ShouldBe(HttpStatusCode.NotFound);
        (await http.GetAsync("/openapi/v1.json", Ct)).StatusCode.ShouldBe(HttpStatusCode.OK);
    }

    [Fact(Timeout = 900_000)]
    public async Task The_native_build_refuses_bad_settings_in_the_words_of_the_regular_build()
    {
        build.SkipUnlessBuilt();

        // Out-of-range and unconvertible values, in one section and in two, all named in one run; then the
        // authorization refusal.
        foreach (string[] settings in (string[][])[
            ["--Store:CommandTimeoutSeconds=-5", "--Store:Layout=Tables", "--Store:UnitOfWork=PerWorkflow",
                "--Store:Sqlite:BusyTimeoutMilliseconds=-1", "--Store:Sqlite:Synchronous=Extra"],
            ["--Authorization:Mode=Bearer"]])
        {
            string[] arguments = [.. settings, "--urls", "http://127.0.0.1:0"];
            var native = await OrderServiceProcess.RunAsync(arguments, executable: build.Executable,
                cancellationToken: Ct);
            var regular = await OrderServiceProcess.RunAsync(arguments, cancellationToken: Ct);

            regular.ExitCode.ShouldBe(1, regular.StandardError);
            regular.ErrorLines.Count.ShouldBe(settings.Length, regular.StandardError);
            native.ExitCode.ShouldBe(1, native.StandardError);
            native.ErrorLines.ShouldBe(regular.ErrorLines);
            if (settings.Contains("--Store:Layout=Tables"))
            {
                regular.ErrorLines.ShouldContain("Invalid setting Store:Layout = \"Tables\"; allowed: Relational, Document.");
            }
        }
    }

    [Theory(Timeout = 900_000)]
    [InlineData("SqlServer", "Server=127.0.0.1,1433;Database=orders")]
    [InlineData("MongoDb", "mongodb://127.0.0.1:27017/orders")]
    public async Task The_native_build_names_the_stores_it_leaves_out(string provider, string connectionString)
    {
        build.SkipUnlessBuilt();

        var run = await OrderServiceProcess.RunAsync(
            [$"--Store:Provider={provider}", $"--ConnectionStrings:Orders={connectionString}", "--urls", "http://127.0.0.1:0"],
            timeout: TimeSpan.FromSeconds(30), executable: build.Executable, cancellationToken: Ct);

        run.ExitCode.ShouldBe(1, run.StandardOutput + run.StandardError);
        run.ErrorLines.ShouldBe([$"Invalid setting Store:Provider = \"{provider}\"; allowed: Sqlite, PostgreSql (the stores this build ships)."]);
    }

    private static async Task<HttpStatusCode> Post(HttpClient http, string path, object? body)
    {
        using var response = body is null ? await http.PostAsync(path, null, Ct) : await http.PostAsJsonAsync(path, body, Ct);
        return response.StatusCode;
    }

    private static async Task<JsonObject> Json(HttpResponseMessage response) =>
        (await response.Content.ReadFromJsonAsync<JsonObject>(Ct))!;
}
