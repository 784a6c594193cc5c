using System.Text.RegularExpressions;
using Dapper;
using Npgsql;
using OrderService.Data;
using OrderService.Data.Document;
using OrderService.Data.Orders;
using OrderService.Data.PostgreSql;
using OrderService.Data.PostgreSql.Citus;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.ScaleOut;

/// <summary>
/// With Store:PostgreSql:Distribution=Citus and the default switches (PerRequest, ReadCommitted), every statement a
/// workflow sends (create, pay, ship, complete, cancel, with and without key and If-Match; GET by id; the key and state
/// look-ups after a write that did not apply) is planned by Citus as a router plan of ONE task, on the shard of its
/// order: EXPLAIN of each, with the store's own parameters, on the schema the service made. Only the batch and the
/// customer listing span shards, by what they ask for.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.Citus)]
public sealed partial class CitusRouterPlanTests : CitusClusterTests
{
    [Fact]
    public async Task Every_relational_workflow_statement_is_one_task()
    {
        var options = CitusOptions(StoreLayout.Relational);
        var connectionString = await Cluster.CreateDatabaseAsync("plan_relational", Ct);
        await using var database = StoreContexts.PostgresDatabase(connectionString, options, Citus);
        await new PostgresSchema(database, StoreLayout.Relational).EnsureCreatedAsync(Ct);
        var dialect = new PostgreSqlDialect(PostgreSqlDistribution.Citus);

        var id = Guid.CreateVersion7();
        var values = new
        {
            Id = id, CustomerId = "c-1", Total = 10.5m, At = DateTimeOffset.UtcNow, Lines = """[{"line_no":1,"sku":"S","quantity":1,"unit_price":10.5}]""",
            Data = "{}", Key = "k-1", RequestHash = "h", Expected = 1,
        };
        var statements = new List<(string Name, string Sql)>
        {
            ("create", dialect.CreateOrder(false)),
            ("create with key", dialect.CreateOrder(true)),
            ("get by id", dialect.SelectOrderById),
            ("key look-up", dialect.SelectIdempotencyKey),
        };
        foreach (var action in Enum.GetValues<OrderAction>())
        {
            foreach (var checksVersion in (bool[])[false, true])
            {
                foreach (var withKey in (bool[])[false, true])
                {
                    var shape = $"{action}{(checksVersion ? " If-Match" : "")}{(withKey ? " keyed" : "")}";
                    statements.Add(($"transition {shape}", dialect.Transition(action, checksVersion, withKey)));
                    statements.Add(($"transition write {shape}", dialect.TransitionWrite(action, checksVersion, withKey)));
                }
            }
        }

        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(Ct);
        foreach (var (name, sql) in statements)
        {
            var plan = string.Join("\n", await connection.QueryAsync<string>(new CommandDefinition("EXPLAIN (COSTS OFF) " + sql, values, cancellationToken: Ct)));
            ShouldBeOneTask(name, plan);
        }
    }

    [Fact]
    public async Task Every_document_workflow_statement_is_one_task()
    {
        var options = CitusOptions(StoreLayout.Document);
        var connectionString = await Cluster.CreateDatabaseAsync("plan_document", Ct);
        await using var database = StoreContexts.PostgresDatabase(connectionString, options, Citus);
        await new PostgresSchema(database, StoreLayout.Document).EnsureCreatedAsync(Ct);

        var at = DateTimeOffset.UtcNow;
        var order = Transitions.Create(Guid.CreateVersion7(at), "c-1", [new OrderLine("S", 1, 10.5m)], at);
        var dialect = new PostgreSqlDocumentDialect(PostgreSqlDistribution.Citus);
        var statements = new List<(string Name, string Sql, Action<NpgsqlParameterCollection> Bind)>
        {
            ("create", dialect.CreateStatements(withKey: false).Single(), p => dialect.AddCreate(p, order, OrderDocument.ToJson(order), new NewOrder(order, null, ""))),
            ("create with key", CitusDocumentSql.InsertOrderWithKey, p => dialect.AddCreate(p, order, OrderDocument.ToJson(order), new NewOrder(order, "k-1", "h"))),
            ("get by id", dialect.SelectDocument, p => p.AddWithValue("id", order.Id)),
            ("state", DocumentQueries.SelectState, p => p.AddWithValue("id", order.Id)),
            ("create key look-up", CitusDocumentSql.SelectByKey, p => { p.AddWithValue("id", order.Id); p.AddWithValue("key", "k-1"); }),
            ("transition key look-up", CitusDocumentSql.SelectTransitionKey, p => { p.AddWithValue("id", order.Id); p.AddWithValue("key", "k-1"); }),
        };
        foreach (var action in Enum.GetValues<OrderAction>())
        {
            foreach (var key in (string?[])[null, "k-2"])
            {
                var command = new TransitionCommand(order.Id, action, 1, at, new OrderEventData()) { IdempotencyKey = key, RequestHash = "h" };
                statements.Add(($"transition {action}{(key is null ? "" : " keyed")}", key is null ? CitusDocumentSql.Transition : CitusDocumentSql.TransitionWithKey,
                    p => dialect.AddTransition(p, command)));
            }
        }

        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(Ct);
        foreach (var (name, sql, bind) in statements)
        {
            await using var explain = new NpgsqlCommand("EXPLAIN (COSTS OFF) " + sql, connection);
            bind(explain.Parameters);
            var lines = new List<string>();
            await using (var reader = await explain.ExecuteReaderAsync(Ct))
            {
                while (await reader.ReadAsync(Ct))
                {
                    lines.Add(reader.GetString(0));
                }
            }

            ShouldBeOneTask(name, string.Join("\n", lines));
        }
    }

    private static StoreOptions CitusOptions(StoreLayout layout) => new()
    {
        Provider = StoreProvider.PostgreSql,
        Layout = layout,
    };

    private static void Citus(PostgreSqlStoreOptions options) => options.Distribution = PostgreSqlDistribution.Citus;

    /// <summary>A Citus router plan: one distributed scan, one task, no subplans (which run as statements of their own).</summary>
    private static void ShouldBeOneTask(string statement, string plan)
    {
        plan.ShouldContain("Custom Scan (Citus Adaptive)", customMessage: $"{statement} is not planned by Citus:\n{plan}");
        plan.ShouldNotContain("Distributed Subplan", customMessage: $"{statement} has subplans:\n{plan}");
        TaskCount().Matches(plan).Select(m => m.Groups[1].Value).ShouldBe(["1"], $"{statement} must be one task:\n{plan}");
    }

    [GeneratedRegex(@"Task Count: (\d+)")]
    private static partial Regex TaskCount();
}
