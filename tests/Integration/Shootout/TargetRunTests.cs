using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Data.Sqlite;
using OrderService.Load.Shootout;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Shootout;

/// <summary>
/// <c>--target</c>: the workflow scenario against a service the test starts itself (on Kestrel, SQLite), with no
/// store orchestration and no audit by the harness; the test counts the orders in the database on its own.
/// </summary>
[Collection(nameof(LoadHarnessCollection))]
public sealed class TargetRunTests
{
    private const int Workflows = 200;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact(Timeout = 180_000)]
    public async Task A_load_test_of_a_running_service_completes_every_workflow_and_writes_NBomber_s_reports()
    {
        var port = FreePort.Loopback();
        var scratch = Path.Combine(Path.GetTempPath(), $"target-run-{Guid.NewGuid():N}");
        var database = Path.Combine(scratch, "orders.db");
        var output = Path.Combine(scratch, "reports");
        Directory.CreateDirectory(scratch);
        try
        {
            await using (var app = new WebApplicationFactory<Program>().WithWebHostBuilder(b =>
                b.UseEnvironment("Testing").UseSetting("ConnectionStrings:Orders", $"Data Source={database}")))
            {
                app.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));
                app.StartServer();

                var exitCode = await TargetRun.RunAsync(new TargetOptions(new Uri($"http://127.0.0.1:{port}/"), Workflows, 20, null, null, output), Ct);

                exitCode.ShouldBe(0);
            }

            foreach (var extension in new[] { "html", "md", "csv", "txt" })
            {
                File.Exists(Path.Combine(output, $"nbomber.{extension}")).ShouldBeTrue($"NBomber's {extension} report in --out");
            }

            (await File.ReadAllTextAsync(Path.Combine(output, "nbomber.md"), Ct)).ShouldContain("workflow");
            await using var connection = new SqliteConnection($"Data Source={database};Mode=ReadOnly;Pooling=false");
            await connection.OpenAsync(Ct);
            (await CountAsync(connection, "SELECT count(*) FROM orders")).ShouldBe(Workflows);
            (await CountAsync(connection, "SELECT count(*) FROM orders WHERE status = 'Completed' AND version = 4")).ShouldBe(Workflows);
            (await CountAsync(connection, "SELECT count(*) FROM order_events")).ShouldBe(Workflows * 4);
            (await CountAsync(connection, "SELECT count(*) FROM idempotency_keys")).ShouldBe(Workflows, "each workflow sends a fresh Idempotency-Key");
        }
        finally
        {
            SqliteConnection.ClearAllPools();
            Directory.Delete(scratch, recursive: true);
        }
    }

    [Fact(Timeout = 60_000)]
    public async Task A_target_that_does_not_answer_its_readiness_check_exits_2_before_any_load()
    {
        var output = Path.Combine(Path.GetTempPath(), $"target-none-{Guid.NewGuid():N}");

        var exitCode = await TargetRun.RunAsync(new TargetOptions(new Uri($"http://127.0.0.1:{FreePort.Loopback()}/"), Workflows, 20, null, null, output), Ct);

        exitCode.ShouldBe(TargetRun.NotReady);
        Directory.Exists(output).ShouldBeFalse("nothing ran, so nothing was written");
    }

    private static async Task<long> CountAsync(SqliteConnection connection, string sql)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        return (long)(await command.ExecuteScalarAsync(Ct))!;
    }
}
