using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using Npgsql;
using OrderService.Integration.Tests.Api;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Isolation;

/// <summary>
/// Store:WriteIsolation=RepeatableRead and Serializable hold under concurrency, through HTTP, on a real
/// PostgreSQL and a real SQLite file: concurrent workflows (create, pay, ship, complete, each with a key and
/// If-Match, a 503 sent again as a client would) never see a 500, and the audit afterwards is clean (every
/// acknowledged workflow is Completed with events 1..4, no order twice). And the reason it holds is tested on its
/// own: a conflict the server rolled back (40001) is rerun whole, and with the conflict retries off it is a 503.
/// </summary>
public sealed class StrictIsolationTests(ApiHost host, PostgresServer postgres) : IClassFixture<ApiHost>
{
    private const int Workflows = 120;
    private const int OrdersPerCustomer = 4;

    public static IEnumerable<TheoryDataRow<string, string>> Stores =>
    [
        new TheoryDataRow<string, string>("PostgreSql", "Serializable").WithStoreTraits(),
        new TheoryDataRow<string, string>("PostgreSql", "RepeatableRead").WithStoreTraits(),
        new TheoryDataRow<string, string>("Sqlite", "Serializable").WithStoreTraits(),
        new TheoryDataRow<string, string>("Sqlite", "RepeatableRead").WithStoreTraits(),
    ];

    [Theory]
    [MemberData(nameof(Stores))]
    public async Task Concurrent_workflows_at_a_strict_isolation_get_no_500_and_leave_a_clean_audit(
        string provider, string isolation)
    {
        await using var service = await StartAsync(provider, isolation, maxConflictRetries: null);
        var api = new OrderApi(service.CreateClient(), TestContext.Current.CancellationToken);
        var failures = new ConcurrentBag<string>();
        var completed = new ConcurrentBag<Guid>();
        var customers = Enumerable.Range(0, Workflows / OrdersPerCustomer).Select(_ => Ids.NewCustomer()).ToArray();

        // All at once: every workflow's create races the others' creates (several per customer) and transitions.
        await Task.WhenAll(Enumerable.Range(0, Workflows).Select(i => Task.Run(
            () => RunWorkflowAsync(api, customers[i % customers.Length], failures, completed), ApiHost.Ct)));

        failures.ShouldBeEmpty($"{failures.Count} of {Workflows} workflows failed: {string.Join("; ", failures.Take(5))}");
        completed.Count.ShouldBe(Workflows);
        foreach (var customer in customers)
        {
            var orders = await api.ListAsync(customer);
            orders.Count.ShouldBe(OrdersPerCustomer, $"customer {customer}: one order per create, none twice");
            foreach (var order in orders)
            {
                completed.ShouldContain(order.Id);
                order.Status.ShouldBe("Completed");
                order.Version.ShouldBe(4);
                order.Events.Select(e => e.Sequence).ShouldBe([1, 2, 3, 4]);
                order.Events.Select(e => e.Type).ShouldBe(["Created", "Paid", "Shipped", "Completed"]);
            }
        }
    }

    [Theory]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    [InlineData("Serializable", null, HttpStatusCode.OK)]
    [InlineData("RepeatableRead", null, HttpStatusCode.OK)]
    [InlineData("Serializable", 0, HttpStatusCode.ServiceUnavailable)]
    [InlineData("RepeatableRead", 0, HttpStatusCode.ServiceUnavailable)]
    public async Task A_transition_the_server_aborts_with_40001_is_rerun_whole_and_without_conflict_retries_it_is_a_503(
        string isolation, int? maxConflictRetries, HttpStatusCode expected)
    {
        await using var service = await StartAsync("PostgreSql", isolation, maxConflictRetries);
        var api = new OrderApi(service.CreateClient(), TestContext.Current.CancellationToken);
        var order = await api.CreateOrderAsync(Ids.NewCustomer());
        var connectionString = service.Settings["ConnectionStrings:Orders"]!;

        // Another writer changes the order's row (a new row version, the same content) and holds its lock, so
        // the service's strict transaction, which started before that commit, waits for it and then fails:
        // "could not serialize access due to concurrent update" (40001). Nothing of the service's unit committed.
        await using var other = new NpgsqlConnection(connectionString);
        await other.OpenAsync(ApiHost.Ct);
        await using var transaction = await other.BeginTransactionAsync(ApiHost.Ct);
        await using (var touch = new NpgsqlCommand("UPDATE orders SET updated_at = updated_at WHERE id = @id", other, transaction))
        {
            touch.Parameters.AddWithValue("id", order.Id);
            (await touch.ExecuteNonQueryAsync(ApiHost.Ct)).ShouldBe(1);
        }

        var pay = api.TransitionAsync(order.Id, "pay", new { paymentReference = "PAY-1" }, ifMatch: "\"1\"");
        await WaitUntilAWriteWaitsForTheRowAsync(connectionString);
        await transaction.CommitAsync(ApiHost.Ct);

        using var response = await pay;
        response.StatusCode.ShouldBe(expected, await response.Content.ReadAsStringAsync(ApiHost.Ct));
        var stored = await api.GetOrderAsync(order.Id);
        if (expected == HttpStatusCode.OK)
        {
            stored.Status.ShouldBe("Paid");
            stored.Events.Select(e => e.Sequence).ShouldBe([1, 2]);
        }
        else
        {
            response.Headers.RetryAfter.ShouldNotBeNull();
            stored.Status.ShouldBe("Created", "the aborted unit left nothing behind");
            stored.Events.Count.ShouldBe(1);
        }
    }

    private async Task<OrderServiceFactory> StartAsync(string provider, string isolation, int? maxConflictRetries)
    {
        var connectionString = provider == "PostgreSql"
            ? await (await postgres.GetAsync()).CreateDatabaseAsync("strict", ApiHost.Ct)
            : $"Data Source={host.PathFor($"strict-{Guid.NewGuid():N}.db")}";
        // What is tested is the conflict handling (its budget stays the default), not how long an attempt may take.
        var settings = new Dictionary<string, string?>(StoreFixture.AnsweringBounds)
        {
            ["Store:Provider"] = provider,
            ["Store:WriteIsolation"] = isolation,
            ["ConnectionStrings:Orders"] = connectionString,
        };
        if (maxConflictRetries is { } retries)
        {
            settings["Resilience:MaxConflictRetries"] = retries.ToString(CultureInfo.InvariantCulture);
            settings["Resilience:MaxRetries"] = "0";
        }

        return new OrderServiceFactory(settings);
    }

    private static async Task RunWorkflowAsync(OrderApi api, string customer, ConcurrentBag<string> failures, ConcurrentBag<Guid> completed)
    {
        var createKey = Ids.NewKey();
        using var created = await OrderApi.RetryUnavailableAsync(
            () => api.CreateAsync(customer, idempotencyKey: createKey), ApiHost.Ct);
        if (created.StatusCode is not (HttpStatusCode.Created or HttpStatusCode.OK))
        {
            failures.Add($"create: {(int)created.StatusCode} {await created.Content.ReadAsStringAsync(ApiHost.Ct)}");
            return;
        }

        var order = await OrderApi.ReadOrderAsync(created, created.StatusCode);
        (string Action, object Body)[] steps =
        [
            ("pay", new { paymentReference = "PAY-" + order.Id.ToString("N")[..8] }),
            ("ship", new { carrier = "Post", trackingNumber = "TRK-1" }),
            ("complete", new { }),
        ];
        foreach (var (action, body) in steps)
        {
            var (version, key) = ($"\"{order.Version}\"", Ids.NewKey());
            using var response = await OrderApi.RetryUnavailableAsync(
                () => api.TransitionAsync(order.Id, action, body, ifMatch: version, idempotencyKey: key), ApiHost.Ct);
            if (response.StatusCode != HttpStatusCode.OK)
            {
                failures.Add($"{action}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync(ApiHost.Ct)}");
                return;
            }

            order = await OrderApi.ReadOrderAsync(response, HttpStatusCode.OK);
        }

        completed.Add(order.Id);
    }

    /// <summary>Until a backend of the database waits on a row lock (the service's UPDATE behind the other writer).</summary>
    private static async Task WaitUntilAWriteWaitsForTheRowAsync(string connectionString)
    {
        await using var probe = new NpgsqlConnection(connectionString);
        await probe.OpenAsync(ApiHost.Ct);
        await using var command = new NpgsqlCommand(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'", probe);
        for (var tries = 0; tries < 600; tries++)
        {
            if ((long)(await command.ExecuteScalarAsync(ApiHost.Ct))! > 0)
            {
                return;
            }

            await Task.Delay(50, ApiHost.Ct);
        }

        throw new TimeoutException("The service's transition never waited for the row lock.");
    }
}
