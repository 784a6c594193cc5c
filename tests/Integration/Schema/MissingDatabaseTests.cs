using System.Collections.Concurrent;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Logging;
using Npgsql;
using OrderService.Integration.Tests.Authorization;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Schema;

/// <summary>
/// ConnectionStrings:Orders names a PostgreSQL database that does not exist. With a role that may create
/// databases the service creates it and serves; with one that may not, POST /orders and GET /orders/{id}
/// answer 503 (never 500) with the reason and the fix to an operator, and with neither to anyone else; readiness
/// gives the status alone, /health/detail the reason to an operator; the service serves by itself once the database
/// exists. Both layouts, against the assembly's PostgreSQL server.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class MissingDatabaseTests(PostgresServer server)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData("Relational")]
    [StoreData("Document")]
    public async Task A_missing_database_is_created_when_the_role_may_create_databases(string layout)
    {
        var postgres = await server.GetAsync();
        var connectionString = postgres.MissingDatabaseConnectionString("missing_created");
        var name = new NpgsqlConnectionStringBuilder(connectionString).Database!;
        (await DatabaseExistsAsync(postgres, name)).ShouldBeFalse();

        await using var factory = new OrderServiceFactory(Settings(layout, connectionString));
        using var client = factory.CreateClient();
        var api = new OrderApi(client, Ct);

        var created = await api.CreateOrderAsync(Ids.NewCustomer());
        (await api.GetOrderAsync(created.Id)).ShouldBeEquivalentTo(created);
        (await DatabaseExistsAsync(postgres, name)).ShouldBeTrue();
    }

    [Theory]
    [StoreData("Relational")]
    [StoreData("Document")]
    public async Task A_missing_database_the_role_may_not_create_gives_the_fix_to_an_operator_only(string layout)
    {
        var postgres = await server.GetAsync();
        var (connectionString, name, role) = await DeniedDatabaseAsync(postgres);
        try
        {
            var log = new ConcurrentQueue<string>();
            await using var factory = new OrderServiceFactory(Settings(layout, connectionString, TestTokens.Settings));
            await using var logged = factory.WithWebHostBuilder(web => web.ConfigureLogging(logging =>
                logging.AddProvider(new LogLines(log, level => level >= LogLevel.Warning))));
            using var client = logged.CreateClient();
            var admin = TestTokens.Create("orders:read orders:write orders:admin");
            var customer = Ids.NewCustomer();
            var customerToken = TestTokens.Create("orders:read orders:write", customer);

            using (var create = await SendAsync(client, HttpMethod.Post, "/orders", admin, ValidOrder()))
            {
                await ShouldBeSetUpProblemAsync(create, name, role);
            }

            using (var read = await SendAsync(client, HttpMethod.Get, $"/orders/{Guid.CreateVersion7()}", admin))
            {
                await ShouldBeSetUpProblemAsync(read, name, role);
            }

            using (var detail = await SendAsync(client, HttpMethod.Get, "/health/detail", admin))
            {
                detail.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
                (await detail.Content.ReadAsStringAsync(Ct)).ShouldContain("lacks CREATEDB");
            }

            using (var create = await SendAsync(client, HttpMethod.Post, "/orders", customerToken,
                ValidOrder(customer)))
            {
                await ShouldHideTheReasonAsync(create, name, role);
                create.Headers.RetryAfter.ShouldNotBeNull();
            }

            using (var ready = await client.GetAsync("/health/ready", Ct))
            {
                await ShouldHideTheReasonAsync(ready, name, role);
            }

            foreach (var token in new[] { null, customerToken })
            {
                using var detail = await SendAsync(client, HttpMethod.Get, "/health/detail", token);
                detail.StatusCode.ShouldBe(HttpStatusCode.Forbidden);
            }

            log.ShouldContain(line => line.Contains($"role \"{role}\" may not create it", StringComparison.Ordinal),
                "the log keeps what the body leaves out");

            // The fix the 503 names; the service needs no restart.
            await AdminAsync(postgres, $"CREATE DATABASE \"{name}\" OWNER {role}");
            using var after = await SendAsync(client, HttpMethod.Post, "/orders", admin, ValidOrder());
            after.StatusCode.ShouldBe(HttpStatusCode.Created, await after.Content.ReadAsStringAsync(Ct));
        }
        finally
        {
            await DropAsync(postgres, name, role);
        }
    }

    /// <summary>With authorization off, the operator is a loopback caller (TestServer gives no address).</summary>
    [Fact]
    public async Task With_authorization_off_only_a_loopback_caller_gets_the_fix()
    {
        var postgres = await server.GetAsync();
        var (connectionString, name, role) = await DeniedDatabaseAsync(postgres);
        try
        {
            await using var remote = new OrderServiceFactory(Settings("Relational", connectionString));
            using var unknown = remote.CreateClient();
            using (var create = await unknown.PostAsJsonAsync("/orders", ValidOrder(), Ct))
            {
                await ShouldHideTheReasonAsync(create, name, role);
            }

            (await unknown.GetAsync("/health/detail", Ct)).StatusCode.ShouldBe(HttpStatusCode.Forbidden);

            var port = FreePort.Loopback();
            await using var local = new OrderServiceFactory(Settings("Relational", connectionString));
            local.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));
            local.StartServer();
            using var loopback = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}/") };
            using (var create = await loopback.PostAsJsonAsync("/orders", ValidOrder(), Ct))
            {
                await ShouldBeSetUpProblemAsync(create, name, role);
            }

            using (var ready = await loopback.GetAsync("/health/ready", Ct))
            {
                await ShouldHideTheReasonAsync(ready, name, role);
            }

            using var detail = await loopback.GetAsync("/health/detail", Ct);
            detail.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
            (await detail.Content.ReadAsStringAsync(Ct)).ShouldContain("lacks CREATEDB");
        }
        finally
        {
            await DropAsync(postgres, name, role);
        }
    }

    private static async Task ShouldHideTheReasonAsync(HttpResponseMessage response, string database, string role)
    {
        var body = await response.Content.ReadAsStringAsync(Ct);
        response.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable, body);
        OrderApi.ShouldHaveMediaType(response, "application/problem+json");
        foreach (var secret in new[] { database, role, "CREATEDB", "PostgreSQL" })
        {
            body.ShouldNotContain(secret, Case.Insensitive, "only an operator reads the store's own words");
        }
    }

    private static async Task<HttpResponseMessage> SendAsync(HttpClient client, HttpMethod method, string path,
        string? token, JsonObject? body = null)
    {
        using var request = new HttpRequestMessage(method, path);
        request.Content = body is null ? null : JsonContent.Create(body);
        if (token is not null)
        {
            request.Headers.Authorization = new("Bearer", token);
        }

        return await client.SendAsync(request, Ct);
    }

    /// <summary>A role without CREATEDB, and a connection string as that role to a database that is missing.</summary>
    private static async Task<(string ConnectionString, string Database, string Role)> DeniedDatabaseAsync(
        ThrowawayPostgres postgres)
    {
        var role = $"nocreate_{Guid.NewGuid():N}"[..24];
        const string password = "not-a-secret";
        await AdminAsync(postgres, $"CREATE ROLE {role} LOGIN NOCREATEDB PASSWORD '{password}'");
        var connectionString = postgres.MissingDatabaseConnectionString("missing_denied", role, password);
        return (connectionString, new NpgsqlConnectionStringBuilder(connectionString).Database!, role);
    }

    private static async Task DropAsync(ThrowawayPostgres postgres, string name, string role)
    {
        NpgsqlConnection.ClearAllPools();
        await AdminAsync(postgres, $"DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)", ignoreFailure: true);
        await AdminAsync(postgres, $"DROP ROLE IF EXISTS {role}", ignoreFailure: true);
    }

    private static async Task ShouldBeSetUpProblemAsync(HttpResponseMessage response, string database, string role)
    {
        var body = await response.Content.ReadAsStringAsync(Ct);
        response.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable, body);
        response.Headers.RetryAfter.ShouldNotBeNull();
        OrderApi.ShouldHaveMediaType(response, "application/problem+json");
        var detail = JsonNode.Parse(body)!["detail"]!.GetValue<string>();
        detail.ShouldContain($"database \"{database}\" does not exist");
        detail.ShouldContain($"role \"{role}\" may not create it");
        detail.ShouldContain($"CREATE DATABASE \"{database}\" OWNER \"{role}\"");
    }

    private static Dictionary<string, string?> Settings(string layout, string connectionString,
        params (string Key, string? Value)[] more) => new(more.Select(s => KeyValuePair.Create(s.Key, s.Value)))
    {
        ["Store:Provider"] = "PostgreSql",
        ["Store:Layout"] = layout,
        ["ConnectionStrings:Orders"] = connectionString,
    };

    private static JsonObject ValidOrder(string? customer = null) => new()
    {
        ["customerId"] = customer ?? Ids.NewCustomer(),
        ["lines"] = new JsonArray(new JsonObject { ["sku"] = "SKU-1", ["quantity"] = 1, ["unitPrice"] = 2.50m }),
    };

    private static async Task<bool> DatabaseExistsAsync(ThrowawayPostgres postgres, string name)
    {
        await using var connection = new NpgsqlConnection(postgres.AdminConnectionString);
        await connection.OpenAsync(Ct);
        await using var command = new NpgsqlCommand("SELECT count(*) FROM pg_database WHERE datname = @name", connection);
        command.Parameters.AddWithValue("name", name);
        return (long)(await command.ExecuteScalarAsync(Ct))! == 1;
    }

    private static async Task AdminAsync(ThrowawayPostgres postgres, string sql, bool ignoreFailure = false)
    {
        try
        {
            await using var connection = new NpgsqlConnection(postgres.AdminConnectionString);
            await connection.OpenAsync(Ct);
            // CREATE and DROP DATABASE each wait for a checkpoint, which on the shared test cluster under a full run's
            // load has taken longer than Npgsql's default 30 s.
            await using var command = new NpgsqlCommand(sql, connection) { CommandTimeout = 180 };
            await command.ExecuteNonQueryAsync(Ct);
        }
        catch (NpgsqlException) when (ignoreFailure)
        {
            // Cleanup on a server that outlives the run: a leftover database or role is harmless, and the test's
            // verdict was reached before it.
        }
    }
}
