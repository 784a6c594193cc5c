using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Npgsql;
using OrderService.CostLadder;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Load.Tests.CostLadder;

/// <summary>
/// The cost ladder measures only rungs that serve the workflow: each rung, on Kestrel against PostgreSQL, takes one
/// workflow from the load driver's own client (the requests and headers the ladder sends) through every status, and
/// leaves the order and its four events in the database.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class CostLadderRungTests(PostgresServer postgres)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public static TheoryData<string> Rungs => [.. Ladder.Rungs];

    [Theory]
    [MemberData(nameof(Rungs))]
    public async Task A_rung_answers_the_workflow_as_the_service_does(string rung)
    {
        var database = await (await postgres.GetAsync()).CreateDatabaseAsync("ladder", Ct);
        await using var app = await StartAsync(rung, database);
        using var http = new HttpClient { BaseAddress = app.Address };
        var api = new OrderApi(http);

        (await api.IsReadyAsync(Ct)).ShouldBeTrue();
        var created = await api.CreateAsync("ladder-test", "key-1", Ct);
        created.StatusCode.ShouldBe(201, created.Problem);
        (created.OrderStatus, created.Version).ShouldBe(("Created", 1));
        var paid = await api.PayAsync(created.OrderId, 1, "PAY-1", Ct);
        (paid.StatusCode, paid.OrderStatus, paid.Version).ShouldBe((200, "Paid", 2), paid.Problem);
        var stale = await api.ShipAsync(created.OrderId, 1, "TRK1", Ct);
        stale.StatusCode.ShouldBe(409, "If-Match names a version the order has left");
        var shipped = await api.ShipAsync(created.OrderId, 2, "TRK1", Ct);
        (shipped.StatusCode, shipped.OrderStatus, shipped.Version).ShouldBe((200, "Shipped", 3), shipped.Problem);
        var completed = await api.CompleteAsync(created.OrderId, 3, Ct);
        (completed.StatusCode, completed.OrderStatus, completed.Version, completed.OrderId).ShouldBe((200, "Completed", 4, created.OrderId), completed.Problem);

        (await QueryAsync(database, "SELECT string_agg(type, ',' ORDER BY sequence) FROM order_events WHERE order_id = $1", created.OrderId))
            .ShouldBe("Created,Paid,Shipped,Completed");
    }

    [Fact]
    public async Task The_keys_and_etags_rung_replays_a_keyed_step_once_written_and_tags_every_reply_with_its_version()
    {
        var database = await (await postgres.GetAsync()).CreateDatabaseAsync("ladder", Ct);
        await using var app = await StartAsync("f", database);
        using var http = new HttpClient { BaseAddress = app.Address };
        var order = new { customerId = "ladder-keys", lines = new[] { new { sku = "SKU-1", quantity = 2, unitPrice = 12.50m } } };

        var created = await PostAsync(http, "orders", order, ifMatch: null, key: "create-1");
        (created.Status, created.ETag, created.Replayed, created.Version).ShouldBe((201, "\"1\"", false, 1));
        var createdAgain = await PostAsync(http, "orders", order, ifMatch: null, key: "create-1");
        (createdAgain.Status, createdAgain.ETag, createdAgain.Replayed, createdAgain.Id).ShouldBe((201, "\"1\"", true, created.Id));
        var paid = await PostAsync(http, $"orders/{created.Id}/pay", new { paymentReference = "PAY-1" }, ifMatch: 1, key: "pay-1");
        (paid.Status, paid.ETag, paid.Replayed, paid.Version).ShouldBe((200, "\"2\"", false, 2));
        var paidAgain = await PostAsync(http, $"orders/{created.Id}/pay", new { paymentReference = "PAY-1" }, ifMatch: 1, key: "pay-1");
        (paidAgain.Status, paidAgain.ETag, paidAgain.Replayed, paidAgain.Version).ShouldBe((200, "\"2\"", true, 2));
        var reused = await PostAsync(http, $"orders/{created.Id}/pay", new { paymentReference = "PAY-2" }, ifMatch: 2, key: "pay-1");
        reused.Status.ShouldBe(422, "the key was stored by another request");
        var stale = await PostAsync(http, $"orders/{created.Id}/ship", new { carrier = "DHL", trackingNumber = "TRK1" }, ifMatch: 1, key: null);
        stale.Status.ShouldBe(409, "If-Match names a version the order has left");
        var shipped = await PostAsync(http, $"orders/{created.Id}/ship", new { carrier = "DHL", trackingNumber = "TRK1" }, ifMatch: 2, key: null);
        (shipped.Status, shipped.ETag, shipped.Version).ShouldBe((200, "\"3\"", 3));
        var completed = await PostAsync(http, $"orders/{created.Id}/complete", body: null, ifMatch: 3, key: "complete-1");
        (completed.Status, completed.ETag, completed.Version).ShouldBe((200, "\"4\"", 4));

        (await QueryAsync(database, "SELECT count(*) FROM orders WHERE customer_id = $1", "ladder-keys")).ShouldBe(1L, "the replayed create wrote no second order");
        (await QueryAsync(database, "SELECT string_agg(type, ',' ORDER BY sequence) FROM order_events WHERE order_id = $1", created.Id))
            .ShouldBe("Created,Paid,Shipped,Completed", "the replayed pay wrote no second event");
        (await QueryAsync(database, "SELECT string_agg(key, ',' ORDER BY key) FROM idempotency_keys WHERE order_id = $1", created.Id))
            .ShouldBe("complete-1,create-1,pay-1");
    }

    /// <summary>The rungs from b up, which check the request contract.</summary>
    public static TheoryData<string> ContractRungs => [.. Ladder.Rungs.SkipWhile(rung => rung != "b")];

    [Theory]
    [MemberData(nameof(ContractRungs))]
    public async Task A_contract_rung_refuses_bad_input_with_a_validation_problem_and_changes_nothing(string rung)
    {
        var database = await (await postgres.GetAsync()).CreateDatabaseAsync("ladder", Ct);
        await using var app = await StartAsync(rung, database);
        using var http = new HttpClient { BaseAddress = app.Address };

        using var reply = await http.PostAsJsonAsync("orders", new { customerId = "no spaces", lines = Array.Empty<object>() }, Ct);

        reply.StatusCode.ShouldBe(HttpStatusCode.BadRequest);
        OrderApi.ShouldHaveMediaType(reply, "application/problem+json");
        var problem = await reply.Content.ReadAsStringAsync(Ct);
        problem.ShouldContain("customerId");
        problem.ShouldContain("lines");
        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync(Ct);
        await using var count = new NpgsqlCommand("SELECT count(*) FROM orders", connection);
        (await count.ExecuteScalarAsync(Ct)).ShouldBe(0L);
    }

    private static async Task<object?> QueryAsync(string database, string sql, object parameter)
    {
        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync(Ct);
        await using var command = new NpgsqlCommand(sql, connection) { Parameters = { new NpgsqlParameter { Value = parameter } } };
        return await command.ExecuteScalarAsync(Ct);
    }

    /// <summary>A POST with the headers the service reads, and what rung f's tests look at in the reply.</summary>
    private static async Task<(int Status, string? ETag, bool Replayed, Guid Id, int Version)> PostAsync(
        HttpClient http, string path, object? body, int? ifMatch, string? key)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = body is null ? null : JsonContent.Create(body) };
        if (ifMatch is { } version)
        {
            request.Headers.TryAddWithoutValidation("If-Match", $"\"{version}\"");
        }

        if (key is not null)
        {
            request.Headers.TryAddWithoutValidation("Idempotency-Key", key);
        }

        using var reply = await http.SendAsync(request, Ct);
        var replayed = reply.Headers.TryGetValues("Idempotent-Replayed", out var values) && values.Single() == "true";
        if (!reply.IsSuccessStatusCode)
        {
            return ((int)reply.StatusCode, reply.Headers.ETag?.Tag, replayed, Guid.Empty, 0);
        }

        using var order = JsonDocument.Parse(await reply.Content.ReadAsStringAsync(Ct));
        return ((int)reply.StatusCode, reply.Headers.ETag?.Tag, replayed, order.RootElement.GetProperty("id").GetGuid(), order.RootElement.GetProperty("version").GetInt32());
    }

    private static async Task<StartedRung> StartAsync(string rung, string database)
    {
        var app = await Ladder.BuildAsync(["--rung", rung, "--postgres", database, "--urls", "http://127.0.0.1:0"], Ct);
        await app.StartAsync(Ct);
        return new StartedRung(app);
    }

    /// <summary>A rung on Kestrel; disposing it stops the host first, so that its background services end as in a shut-down.</summary>
    private sealed class StartedRung(WebApplication app) : IAsyncDisposable
    {
        /// <summary>Kestrel's address once started (port 0 became a free port).</summary>
        public Uri Address { get; } = new(app.Urls.First() + "/");

        public async ValueTask DisposeAsync()
        {
            await app.StopAsync(CancellationToken.None);
            await app.DisposeAsync();
        }
    }
}
