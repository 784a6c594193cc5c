using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Npgsql;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Failover;

/// <summary>
/// Every way a PostgreSQL primary goes away during a failover is a 503 with Retry-After, never a 500, on the group
/// commit's path too, and the service recovers without a restart: no host that is a primary (a multi-host string whose
/// hosts are standbys, or down), a write on a node that turned read-only under the pool (25006, as after a demotion),
/// and an administrator's or failover manager's shutdown of the backend while a group waits (57P01), where a write
/// that a rerun could not recognise is not rerun blind. A real primary and a real streaming standby
/// (pg_basebackup -R), owned by this class, since the tests turn the primary read-only.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresUnavailabilityTests(PostgresUnavailabilityTests.PrimaryAndStandby servers)
    : IClassFixture<PostgresUnavailabilityTests.PrimaryAndStandby>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_multi_host_string_that_finds_no_primary_answers_503_and_the_same_string_with_the_primary_works()
    {
        var (primary, standby) = await servers.GetAsync();
        var database = await primary.CreateDatabaseAsync("no_primary", Ct);
        var name = new NpgsqlConnectionStringBuilder(database).Database!;

        // The control: the same kind of string with the primary among its hosts creates the schema and an order.
        await using var withPrimary = Service(MultiHost(name, standby.Port, primary.Port));
        var api = new OrderApi(withPrimary.CreateClient(), Ct);
        var order = await api.CreateOrderAsync(Ids.NewCustomer());
        await WaitForReplayAsync(standby, name, order.Id);

        // Only standbys: every host answers, none is a primary. Npgsql: "No suitable host was found".
        await using var standbysOnly = Service(MultiHost(name, standby.Port, standby.Port));
        var noPrimary = new OrderApi(standbysOnly.CreateClient(), Ct);
        await ShouldBeUnavailableAsync(await noPrimary.CreateAsync(Ids.NewCustomer()));
        await ShouldBeUnavailableAsync(await noPrimary.TransitionAsync(order.Id, "pay"));
        await ShouldBeUnavailableAsync(await noPrimary.GetAsync($"/orders/{order.Id}"));

        // Every host down: Npgsql's "Unable to connect to a suitable host", one refusal per host inside.
        var down = new NpgsqlConnectionStringBuilder(ThrowawayPostgres.UnreachableConnectionString()).Port;
        await using var allDown = Service(MultiHost(name, down, new NpgsqlConnectionStringBuilder(ThrowawayPostgres.UnreachableConnectionString()).Port));
        var nothingUp = new OrderApi(allDown.CreateClient(), Ct);
        await ShouldBeUnavailableAsync(await nothingUp.CreateAsync(Ids.NewCustomer()));
        await ShouldBeUnavailableAsync(await nothingUp.GetAsync($"/orders/{order.Id}"));
    }

    [Fact]
    public async Task Writes_on_a_primary_that_turned_read_only_under_the_pool_answer_503_and_succeed_again_without_a_restart()
    {
        var (primary, _) = await servers.GetAsync();
        var database = await primary.CreateDatabaseAsync("read_only", Ct);
        await using var service = Service(database);
        var api = new OrderApi(service.CreateClient(), Ct);
        await WarmUpAsync(service);
        var order = await api.CreateOrderAsync(Ids.NewCustomer());

        // A reload reaches the pooled sessions too: their next write fails with 25006, as on a demoted primary.
        await SetReadOnlyAsync(primary, true);
        try
        {
            await ShouldBeUnavailableAsync(await api.CreateAsync(Ids.NewCustomer()));
            await ShouldBeUnavailableAsync(await api.TransitionAsync(order.Id, "pay"));
            await ShouldBeUnavailableAsync(await api.TransitionAsync(order.Id, "cancel", idempotencyKey: Ids.NewKey()));
        }
        finally
        {
            await SetReadOnlyAsync(primary, false);
        }

        // Nine refused attempts may have opened the circuit (they are the store refusing writes: an outage); it closes
        // by itself through a half-open call.
        await api.WaitUntilReadyAsync(TimeSpan.FromSeconds(30), "the service recovers without a restart once the primary takes writes again");
        await api.CreateOrderAsync(Ids.NewCustomer());
        var paid = await api.TransitionOkAsync(order.Id, "pay");
        paid.Events.Count(e => e.Type == "Paid").ShouldBe(1, "the refused writes committed nothing");
        paid.Events.ShouldNotContain(e => e.Type == "Cancelled");
    }

    [Fact]
    public async Task A_group_whose_backend_is_shut_down_by_an_administrator_answers_503_and_is_not_rerun_blind()
    {
        var (primary, _) = await servers.GetAsync();
        var database = await primary.CreateDatabaseAsync("admin_shutdown", Ct);
        var name = new NpgsqlConnectionStringBuilder(database).Database!;
        await using var service = Service(database);
        var api = new OrderApi(service.CreateClient(), Ct);
        await WarmUpAsync(service);
        var order = await api.CreateOrderAsync(Ids.NewCustomer());

        // The group waits on the order's row lock, so it is in flight when its backend is terminated (57P01).
        await using (var holder = new NpgsqlConnection(database))
        {
            await holder.OpenAsync(Ct);
            await using var transaction = await holder.BeginTransactionAsync(Ct);
            await using (var lockRow = new NpgsqlCommand($"SELECT 1 FROM orders WHERE id = '{order.Id}' FOR UPDATE", holder, transaction))
            {
                await lockRow.ExecuteScalarAsync(Ct);
            }

            var pay = api.TransitionAsync(order.Id, "pay");
            var waiting = await WaitForLockWaiterAsync(primary, name);
            await using (var terminate = new NpgsqlConnection(primary.AdminConnectionString))
            {
                await terminate.OpenAsync(Ct);
                await using var command = new NpgsqlCommand("SELECT pg_terminate_backend(@pid)", terminate);
                command.Parameters.AddWithValue("pid", waiting);
                (await command.ExecuteScalarAsync(Ct)).ShouldBe(true);
            }

            // Without a key or If-Match a rerun could not tell its first attempt: one attempt, then 503.
            await ShouldBeUnavailableAsync(await pay);
            await transaction.RollbackAsync(Ct);
        }

        var stored = await api.GetOrderAsync(order.Id);
        stored.Status.ShouldBe("Created", "the terminated group rolled back");
        using var retried = await api.TransitionAsync(order.Id, "pay", idempotencyKey: Ids.NewKey());
        (await OrderApi.ReadOrderAsync(retried, HttpStatusCode.OK)).Events.Count(e => e.Type == "Paid").ShouldBe(1);
    }

    private static async Task ShouldBeUnavailableAsync(HttpResponseMessage response)
    {
        using (response)
        {
            await OrderApi.ReadProblemAsync(response, HttpStatusCode.ServiceUnavailable);
            response.Headers.RetryAfter.ShouldNotBeNull("a 503 says when to come back");
        }
    }

    private static string MultiHost(string database, int first, int second) =>
        $"Host=127.0.0.1:{first},127.0.0.1:{second};Username=postgres;Database={database};Target Session Attributes=primary;Timeout=3";

    private static OrderServiceFactory Service(string connectionString) => new(new Dictionary<string, string?>
    {
        ["Store:Provider"] = "PostgreSql",
        ["ConnectionStrings:Orders"] = connectionString,
        ["Resilience:TotalTimeoutSeconds"] = "4",
    });

    private static async Task WarmUpAsync(OrderServiceFactory service)
    {
        var warmUp = service.Services.GetServices<IHostedService>().OfType<StoreWarmUp>().Single();
        await warmUp.ExecuteTask!.WaitAsync(Ct);
    }

    private static async Task SetReadOnlyAsync(ThrowawayPostgres server, bool readOnly)
    {
        await using var connection = new NpgsqlConnection(server.AdminConnectionString);
        await connection.OpenAsync(Ct);
        var setting = readOnly ? "ALTER SYSTEM SET default_transaction_read_only = on" : "ALTER SYSTEM RESET default_transaction_read_only";
        await using (var alter = new NpgsqlCommand(setting, connection))
        {
            await alter.ExecuteNonQueryAsync(Ct);
        }

        await using var reload = new NpgsqlCommand("SELECT pg_reload_conf()", connection);
        await reload.ExecuteScalarAsync(Ct);

        // A reload is a signal; the backends apply it at their next command. Give the postmaster its moment.
        await Task.Delay(300, Ct);
    }

    private static async Task<int> WaitForLockWaiterAsync(ThrowawayPostgres server, string database)
    {
        await using var connection = new NpgsqlConnection(server.AdminConnectionString);
        await connection.OpenAsync(Ct);
        for (var attempt = 0; attempt < 200; attempt++)
        {
            await using var command = new NpgsqlCommand(
                "SELECT pid FROM pg_stat_activity WHERE datname = @database AND wait_event_type = 'Lock' LIMIT 1", connection);
            command.Parameters.AddWithValue("database", database);
            if (await command.ExecuteScalarAsync(Ct) is int pid)
            {
                return pid;
            }

            await Task.Delay(25, Ct);
        }

        throw new TimeoutException("No statement waited on the row lock within 5 s.");
    }

    private static async Task WaitForReplayAsync(ThrowawayPostgres standby, string database, Guid orderId)
    {
        var connectionString = new NpgsqlConnectionStringBuilder(standby.AdminConnectionString) { Database = database, Pooling = false }.ConnectionString;
        for (var attempt = 0; attempt < 100; attempt++)
        {
            try
            {
                await using var connection = new NpgsqlConnection(connectionString);
                await connection.OpenAsync(Ct);
                await using var command = new NpgsqlCommand($"SELECT count(*) FROM orders WHERE id = '{orderId}'", connection);
                if ((long)(await command.ExecuteScalarAsync(Ct))! == 1)
                {
                    return;
                }
            }
            catch (PostgresException notYet) when (notYet.SqlState is "3D000" or "42P01")
            {
                // The database or the table has not been replayed yet.
            }

            await Task.Delay(100, Ct);
        }

        throw new TimeoutException("The standby did not replay the order within 10 s.");
    }

    /// <summary>A throwaway primary and its streaming standby, started on first use and stopped with the class.</summary>
    public sealed class PrimaryAndStandby : IAsyncDisposable
    {
        private readonly Lazy<Task<(ThrowawayPostgres Primary, ThrowawayPostgres Standby)>> _servers = new(StartAsync);

        public async Task<(ThrowawayPostgres Primary, ThrowawayPostgres Standby)> GetAsync()
        {
            if (ThrowawayPostgres.FindBinDirectory() is null)
            {
                Assert.Skip("A primary and a standby need local PostgreSQL binaries (initdb, pg_ctl, pg_basebackup).");
            }

            return await _servers.Value;
        }

        public async ValueTask DisposeAsync()
        {
            if (_servers.IsValueCreated && _servers.Value.IsCompletedSuccessfully)
            {
                var (primary, standby) = _servers.Value.Result;
                await standby.DisposeAsync();
                await primary.DisposeAsync();
            }
        }

        private static async Task<(ThrowawayPostgres, ThrowawayPostgres)> StartAsync()
        {
            var primary = await ThrowawayPostgres.StartLocalAsync();
            try
            {
                return (primary, await primary.StartStandbyAsync());
            }
            catch
            {
                await primary.DisposeAsync();
                throw;
            }
        }
    }
}
