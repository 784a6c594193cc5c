using Npgsql;

namespace OrderService.CostLadder;

/// <summary>
/// Builds one rung: the template's host (CreateBuilder, as the service), a pooled NpgsqlDataSource, the schema, a
/// readiness probe for the load driver, and the rung's four workflow routes.
/// </summary>
public static class Ladder
{
    /// <summary>The rungs this project serves; c to g are described in docs/performance.md.</summary>
    public static readonly IReadOnlyList<string> Rungs = ["a", "b"];

    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        var rung = builder.Configuration["rung"] ?? "a";
        if (!Rungs.Contains(rung))
        {
            throw new ArgumentException($"--rung: '{rung}' is not one of {string.Join(", ", Rungs)}.");
        }

        var connectionString = builder.Configuration["postgres"]
            ?? throw new ArgumentException("--postgres: a PostgreSQL connection string is required.");
        builder.Services.AddSingleton(_ => NpgsqlDataSource.Create(connectionString));
        if (rung == "b")
        {
            ContractRung.AddServices(builder.Services);
        }

        var app = builder.Build();
        var orders = new OrderSql(app.Services.GetRequiredService<NpgsqlDataSource>());
        orders.CreateSchema();
        app.MapGet("/health/ready", () => Results.Ok());
        if (rung == "a")
        {
            BareRung.Map(app, orders);
        }
        else
        {
            ContractRung.Map(app, orders);
        }

        return app;
    }
}
