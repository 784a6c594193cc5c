using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Npgsql;
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
/// answer 503 with the reason and the fix (never 500), readiness says the same, and the service serves
/// by itself once the database exists. Both layouts, against the assembly's PostgreSQL server.
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
    public async Task A_missing_database_the_role_may_not_create_gives_503_with_the_reason_until_it_exists(string layout)
    {
        var postgres = await server.GetAsync();
        var role = $"nocreate_{Guid.NewGuid():N}"[..24];
        const string password = "not-a-secret";
        await AdminAsync(postgres, $"CREATE ROLE {role} LOGIN NOCREATEDB PASSWORD '{password}'");
        var connectionString = postgres.MissingDatabaseConnectionString("missing_denied", role, password);
        var name = new NpgsqlConnectionStringBuilder(connectionString).Database!;
        try
        {
            await using var factory = new OrderServiceFactory(Settings(layout, connectionString));
            using var client = factory.CreateClient();

            using (var create = await client.PostAsJsonAsync("/orders", ValidOrder(), Ct))
            {
                await ShouldBeSetUpProblemAsync(create, name, role);
            }

            using (var read = await client.GetAsync($"/orders/{Guid.CreateVersion7()}", Ct))
            {
                await ShouldBeSetUpProblemAsync(read, name, role);
            }

            using (var ready = await client.GetAsync("/health/ready", Ct))
            {
                ready.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
                (await ready.Content.ReadAsStringAsync(Ct)).ShouldContain("lacks CREATEDB");
            }

            // The fix the 503 names; the service needs no restart.
            await AdminAsync(postgres, $"CREATE DATABASE \"{name}\" OWNER {role}");
            using var after = await client.PostAsJsonAsync("/orders", ValidOrder(), Ct);
            after.StatusCode.ShouldBe(HttpStatusCode.Created, await after.Content.ReadAsStringAsync(Ct));
        }
        finally
        {
            NpgsqlConnection.ClearAllPools();
            await AdminAsync(postgres, $"DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)", ignoreFailure: true);
            await AdminAsync(postgres, $"DROP ROLE IF EXISTS {role}", ignoreFailure: true);
        }
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

    private static Dictionary<string, string?> Settings(string layout, string connectionString) => new()
    {
        ["Store:Provider"] = "PostgreSql",
        ["Store:Layout"] = layout,
        ["ConnectionStrings:Orders"] = connectionString,
    };

    private static JsonObject ValidOrder() => new()
    {
        ["customerId"] = Ids.NewCustomer(),
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
