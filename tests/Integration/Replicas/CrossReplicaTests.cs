using Microsoft.Data.Sqlite;
using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Replicas;

/// <summary>
/// Two service instances on one database (<see cref="CrossReplicaScenarios"/>). PostgreSQL: two in-memory hosts, as two
/// replicas behind a load balancer share one server. SQLite: two real processes on one file, because what keeps them
/// apart is the file's locks (WAL, BEGIN IMMEDIATE, busy_timeout), which only separate processes exercise.
/// </summary>
public sealed class CrossReplicaTests(PostgresServer postgres)
{
    [Theory]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    [StoreData("Relational")]
    [StoreData("Document")]
    public async Task Two_instances_on_one_PostgreSQL_keep_keys_if_match_and_the_event_sequence(string layout)
    {
        var database = await (await postgres.GetAsync()).CreateDatabaseAsync("cross_replica", TestContext.Current.CancellationToken);
        var settings = new Dictionary<string, string?>(StoreFixture.AnsweringBounds, StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = "PostgreSql",
            ["Store:Layout"] = layout,
            ["ConnectionStrings:Orders"] = database,
        };
        await using var first = new OrderServiceFactory(settings);
        await using var second = new OrderServiceFactory(settings);
        var ct = TestContext.Current.CancellationToken;
        await CrossReplicaScenarios.RunAsync(
            new OrderApi(first.CreateClient(), ct), new OrderApi(second.CreateClient(), ct), workflows: 200);
        NpgsqlConnection.ClearAllPools();
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.SQLite)]
    public async Task Two_processes_on_one_SQLite_file_work_with_nothing_lost()
    {
        var directory = Directory.CreateTempSubdirectory("orders-two-processes-").FullName;
        try
        {
            var bounds = StoreFixture.AnsweringBounds.Select(b => KeyValuePair.Create(b.Key, b.Value!));
            var settings = new Dictionary<string, string>(bounds)
            {
                ["Store:Provider"] = "Sqlite",
                ["ConnectionStrings:Orders"] = $"Data Source={Path.Combine(directory, "orders.db")}",
            };
            await using var first = await OrderServiceProcess.StartAsync(directory, settings, TestContext.Current.CancellationToken);
            await using var second = await OrderServiceProcess.StartAsync(directory, settings, TestContext.Current.CancellationToken);
            var ct = TestContext.Current.CancellationToken;
            await CrossReplicaScenarios.RunAsync(
                new OrderApi(first.Client, ct), new OrderApi(second.Client, ct), workflows: 100);
        }
        finally
        {
            SqliteConnection.ClearAllPools();
            Directory.Delete(directory, recursive: true);
        }
    }
}
