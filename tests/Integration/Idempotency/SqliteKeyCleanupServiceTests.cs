using System.Net;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Idempotency;

/// <summary>
/// The clean-up as the service runs it: a hosted service on its own timer, with no call from the test. The conformance
/// suite drives the sweep itself on every store; this shows the service starts it, on SQLite, whose key table the test
/// can count straight from the file.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.SQLite)]
public sealed class SqliteKeyCleanupServiceTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("orders-key-cleanup-").FullName;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task The_service_forgets_expired_keys_on_its_interval_while_it_keeps_answering()
    {
        var database = Path.Combine(_directory, "orders.db");
        var clock = new ShiftedClock();
        await using var factory = new OrderServiceFactory(new Dictionary<string, string?>
        {
            ["Store:Provider"] = nameof(StoreProvider.Sqlite),
            [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = $"Data Source={database}",
            ["Store:IdempotencyKeys:CleanupIntervalSeconds"] = "1",
        });
        await using var host = factory.WithWebHostBuilder(builder => builder.ConfigureTestServices(services => services.AddSingleton<TimeProvider>(clock)));
        using var http = host.CreateClient();
        var api = new OrderApi(http, Ct);
        var customer = Ids.NewCustomer();
        var key = Ids.NewKey();

        using (var created = await api.CreateAsync(customer, idempotencyKey: key))
        {
            await OrderApi.ShouldHaveStatusAsync(created, HttpStatusCode.Created);
        }

        await Task.Delay(TimeSpan.FromSeconds(2.5), Ct);
        (await CountKeysAsync(database)).ShouldBe(1, "two sweeps ran: a key younger than the retention stays");

        clock.Advance(TimeSpan.FromHours(24) + TimeSpan.FromMinutes(1));
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (await CountKeysAsync(database) > 0)
        {
            waited.Elapsed.ShouldBeLessThan(TimeSpan.FromSeconds(20), "the service's own clean-up forgets the key within a few intervals");
            (await api.GetAsync("/health/ready")).StatusCode.ShouldBe(HttpStatusCode.OK);
            await Task.Delay(TimeSpan.FromMilliseconds(200), Ct);
        }

        using var retry = await api.CreateAsync(customer, idempotencyKey: key);
        await OrderApi.ShouldHaveStatusAsync(retry, HttpStatusCode.Created);
        (await api.ListAsync(customer)).Count.ShouldBe(2, "the retry after the retention made a second order");
    }

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        Directory.Delete(_directory, recursive: true);
    }

    private static async Task<long> CountKeysAsync(string database)
    {
        await using var connection = new SqliteConnection($"Data Source={database};Mode=ReadOnly;Pooling=False");
        await connection.OpenAsync(Ct);
        await using var count = connection.CreateCommand();
        count.CommandText = "SELECT count(*) FROM idempotency_keys";
        return (long)(await count.ExecuteScalarAsync(Ct))!;
    }
}
