using Microsoft.Data.Sqlite;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Load.Tests.Shootout;

/// <summary>
/// <c>--out</c> may name a folder that already holds a user's files: <c>--target</c> and the shoot-out write only into
/// folders they create, and every file that was there stays, byte for byte, including files with the names the
/// harness and NBomber write (report.md, nbomber.md, logs/, data/).
/// </summary>
[Collection(nameof(LoadHarnessCollection))]
public sealed class OutFolderTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact(Timeout = 300_000)]
    public async Task Target_and_the_shootout_leave_every_file_already_in_out_as_it_was()
    {
        var scratch = Path.Combine(Path.GetTempPath(), $"out-folder-{Guid.NewGuid():N}");
        var output = Path.Combine(scratch, "out");
        var userFiles = new Dictionary<string, byte[]>
        {
            ["notes.txt"] = "the user's notes\n"u8.ToArray(),
            [Path.Combine("sub", "y.txt")] = [1, 2, 3],
            ["report.md"] = "# a report of the user's\n"u8.ToArray(),
            ["report.json"] = "{}"u8.ToArray(),
            ["chart.svg"] = "<svg/>"u8.ToArray(),
            ["nbomber.md"] = "mine"u8.ToArray(),
            [Path.Combine("nbomber", "keep.txt")] = "mine"u8.ToArray(),
            [Path.Combine("logs", "keep.log")] = "mine"u8.ToArray(),
            [Path.Combine("data", "01-sqlite-relational-v1-shared-uow.db")] = "not a database"u8.ToArray(),
        };
        foreach (var (name, bytes) in userFiles)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.Combine(output, name))!);
            await File.WriteAllBytesAsync(Path.Combine(output, name), bytes, Ct);
        }

        try
        {
            await using (var app = KestrelService.Start(Path.Combine(scratch, "orders.db")))
            {
                (await TargetRun.RunAsync(new TargetOptions(app.Address, 20, 2, null, null, output), Ct)).ShouldBe(0);
            }

            await AssertUntouchedAsync(output, userFiles, "--target");

            var options = new ShootoutOptions
            {
                Stores = [StoreKind.Sqlite],
                Variants = ["relational/v1-shared-uow"],
                Workflows = 20,
                Concurrency = 2,
                Warmup = 0,
                Raw = false,
                Pgbench = false,
                OutputDirectory = output,
                ServiceDll = ShootoutSmokeTests.ServiceBuild(),
                Command = nameof(OutFolderTests),
            };
            var runner = new ShootoutRunner(options);
            var report = await runner.RunAsync(Ct);
            await ReportWriter.WriteAsync(report, runner.OutputDirectory);

            report.Rows.ShouldHaveSingleItem().OkWorkflows.ShouldBe(20);
            await AssertUntouchedAsync(output, userFiles, "the shoot-out");
        }
        finally
        {
            SqliteConnection.ClearAllPools();
            Directory.Delete(scratch, recursive: true);
        }
    }

    private static async Task AssertUntouchedAsync(string output, Dictionary<string, byte[]> userFiles, string after)
    {
        foreach (var (name, bytes) in userFiles)
        {
            var path = Path.Combine(output, name);
            File.Exists(path).ShouldBeTrue($"{name} after {after}");
            (await File.ReadAllBytesAsync(path, Ct)).ShouldBe(bytes, $"{name} after {after}");
        }
    }
}
