using Microsoft.Data.Sqlite;
using OrderService.Load.Shootout;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Load.Tests.Shootout;

/// <summary>
/// <c>--target</c>: the workflow scenario against a service the test starts itself (on Kestrel, SQLite), with no
/// store orchestration and no audit by the harness; the test counts the orders in the database on its own.
/// </summary>
[Collection(nameof(LoadHarnessCollection))]
public sealed class TargetRunTests : IDisposable
{
    private const int Workflows = 200;

    private readonly string _scratch =
        Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), $"target-run-{Guid.NewGuid():N}")).FullName;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact(Timeout = 180_000)]
    public async Task A_load_test_of_a_running_service_completes_every_workflow_and_writes_NBomber_s_reports()
    {
        var database = Path.Combine(_scratch, "orders.db");
        var output = Path.Combine(_scratch, "reports");
        await using (var app = KestrelService.Start(database))
        {
            var options = new TargetOptions(app.Address, Workflows, 20, null, null, output);
            var exitCode = await TargetRun.RunAsync(options, Ct);

            exitCode.ShouldBe(0);
        }

        var reports = ReportFolder(output);
        foreach (var extension in new[] { "html", "md", "csv", "txt" })
        {
            File.Exists(Path.Combine(reports, $"nbomber.{extension}")).ShouldBeTrue($"NBomber's {extension} report");
        }

        var markdown = await File.ReadAllTextAsync(Path.Combine(reports, "nbomber.md"), Ct);
        markdown.ShouldContain("workflow");
        markdown.ShouldContain("all data: `");
        markdown.ShouldNotContain("all data: `0` MB", customMessage: "each step's response carries the reply's size");
        await using var connection = new SqliteConnection($"Data Source={database};Mode=ReadOnly;Pooling=false");
        await connection.OpenAsync(Ct);
        (await CountAsync(connection, "SELECT count(*) FROM orders")).ShouldBe(Workflows);
        (await CountAsync(connection, "SELECT count(*) FROM orders WHERE status = 'Completed' AND version = 4"))
            .ShouldBe(Workflows);
        (await CountAsync(connection, "SELECT count(*) FROM order_events")).ShouldBe(Workflows * 4);
        (await CountAsync(connection, "SELECT count(*) FROM idempotency_keys"))
            .ShouldBe(Workflows, "each workflow sends a fresh Idempotency-Key");
    }

    [Fact(Timeout = 60_000)]
    public async Task A_target_that_does_not_answer_its_readiness_check_exits_2_before_any_load()
    {
        var output = Path.Combine(_scratch, "out");

        var exitCode = await TargetRun.RunAsync(new TargetOptions(new Uri($"http://127.0.0.1:{FreePort.Loopback()}/"), Workflows, 20, null, null, output), Ct);

        exitCode.ShouldBe(TargetRun.NotReady);
        Directory.Exists(output).ShouldBeFalse("nothing ran, so nothing was written");
    }

    [Fact(Timeout = 180_000)]
    public async Task A_config_without_the_workflow_s_load_falls_back_to_workflows_and_reports_into_its_ReportFolder()
    {
        var database = Path.Combine(_scratch, "orders.db");
        var configured = Path.Combine(_scratch, "results");
        var userFile = Path.Combine(configured, "notes.txt");
        var config = Path.Combine(_scratch, "nbomber.json");
        Directory.CreateDirectory(configured);
        await File.WriteAllTextAsync(userFile, "the user's notes", Ct);
        await File.WriteAllTextAsync(config, $$"""{ "GlobalSettings": { "ReportFolder": "{{configured}}" } }""", Ct);
        await using (var app = KestrelService.Start(database))
        {
            var options = new TargetOptions(app.Address, 40, 4, null, config, Path.Combine(_scratch, "out"));

            (await TargetRun.RunAsync(options, Ct)).ShouldBe(0);
        }

        (await File.ReadAllTextAsync(userFile, Ct)).ShouldBe("the user's notes");
        File.Exists(Path.Combine(ReportFolder(configured), "nbomber.md"))
            .ShouldBeTrue("NBomber's reports in a new folder in the config's ReportFolder");
        Directory.Exists(Path.Combine(_scratch, "out")).ShouldBeFalse("the config's ReportFolder wins over --out");
        (await CompletedAsync(database)).ShouldBe(40, "--workflows sets the load");
    }

    [Fact(Timeout = 180_000)]
    public async Task Ctrl_C_stops_the_run_writes_NBomber_s_reports_and_exits_130()
    {
        var output = Path.Combine(_scratch, "out");
        var database = Path.Combine(_scratch, "orders.db");
        int exitCode;
        await using (var app = KestrelService.Start(database))
        {
            using var ctrlC = CancellationTokenSource.CreateLinkedTokenSource(Ct);
            var options = new TargetOptions(app.Address, 1, 4, TimeSpan.FromMinutes(30), null, output);
            var running = Task.Run(() => TargetRun.RunAsync(options, ctrlC.Token), Ct);

            // Ctrl+C once the load is under way: a workflow has completed.
            while (await CompletedAsync(database) == 0 && !running.IsCompleted)
            {
                await Task.Delay(100, Ct);
            }

            await ctrlC.CancelAsync();
            exitCode = await running;
        }

        exitCode.ShouldBe(TargetRun.Cancelled);
        (await CompletedAsync(database)).ShouldBeGreaterThan(0);
        File.Exists(Path.Combine(ReportFolder(output), "nbomber.md")).ShouldBeTrue("the reports of the stopped run");
    }

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        Directory.Delete(_scratch, recursive: true);
    }

    /// <summary>Completed orders in the service's database (none while it has no schema yet).</summary>
    private static async Task<long> CompletedAsync(string database)
    {
        try
        {
            await using var connection = new SqliteConnection($"Data Source={database};Mode=ReadOnly;Pooling=false");
            await connection.OpenAsync(Ct);
            return await CountAsync(connection, "SELECT count(*) FROM orders WHERE status = 'Completed'");
        }
        catch (SqliteException)
        {
            return 0;
        }
    }

    /// <summary>The one folder the run created for NBomber's reports.</summary>
    private static string ReportFolder(string parent) =>
        Directory.GetDirectories(parent, "nbomber-*").ShouldHaveSingleItem();

    private static async Task<long> CountAsync(SqliteConnection connection, string sql)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        return (long)(await command.ExecuteScalarAsync(Ct))!;
    }
}
