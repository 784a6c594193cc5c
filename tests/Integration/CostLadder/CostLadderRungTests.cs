using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.Builder;
using Npgsql;
using OrderService.CostLadder;
using OrderService.Integration.Tests.Servers;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.CostLadder;

/// <summary>
/// The cost ladder measures only rungs that serve the workflow: each rung, on Kestrel against PostgreSQL, takes one
/// workflow from the load driver's own client (the requests and headers the ladder sends) through every status, and
/// leaves the order and its four events in the database.
/// </summary>
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
        using var http = new HttpClient { BaseAddress = Address(app) };
        var api = new OrderApiClient(http);

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

        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync(Ct);
        await using var events = new NpgsqlCommand("SELECT string_agg(type, ',' ORDER BY sequence) FROM order_events WHERE order_id = $1", connection)
        {
            Parameters = { new NpgsqlParameter { Value = created.OrderId } },
        };
        (await events.ExecuteScalarAsync(Ct)).ShouldBe("Created,Paid,Shipped,Completed");
    }

    [Fact]
    public async Task The_contract_rung_refuses_bad_input_with_a_validation_problem_and_changes_nothing()
    {
        var database = await (await postgres.GetAsync()).CreateDatabaseAsync("ladder", Ct);
        await using var app = await StartAsync("b", database);
        using var http = new HttpClient { BaseAddress = Address(app) };

        using var reply = await http.PostAsJsonAsync("orders", new { customerId = "no spaces", lines = Array.Empty<object>() }, Ct);

        reply.StatusCode.ShouldBe(HttpStatusCode.BadRequest);
        reply.Content.Headers.ContentType?.MediaType.ShouldBe("application/problem+json");
        var problem = await reply.Content.ReadAsStringAsync(Ct);
        problem.ShouldContain("customerId");
        problem.ShouldContain("lines");
        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync(Ct);
        await using var count = new NpgsqlCommand("SELECT count(*) FROM orders", connection);
        (await count.ExecuteScalarAsync(Ct)).ShouldBe(0L);
    }

    private static async Task<WebApplication> StartAsync(string rung, string database)
    {
        var app = Ladder.Build(["--rung", rung, "--postgres", database, "--urls", "http://127.0.0.1:0"]);
        await app.StartAsync(Ct);
        return app;
    }

    /// <summary>Kestrel's address once started (port 0 became a free port).</summary>
    private static Uri Address(WebApplication app) => new(app.Urls.First() + "/");
}
