using Npgsql;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.PostgreSql;

namespace OrderService.CostLadder;

/// <summary>
/// Builds one rung: the template's host (CreateBuilder, as the service), the rung's store, a readiness probe for the
/// load driver, and the rung's four workflow routes. Rungs a, a-gc and b create the ladder's own tables; c to f the
/// store's schema.
/// </summary>
public static class Ladder
{
    /// <summary>The rungs this project serves, as docs/cost-ladder.md describes them; g is the service itself.</summary>
    public static readonly IReadOnlyList<string> Rungs = ["a", "a-gc", "b", .. StoreRungs.Rungs];

    public static async Task<WebApplication> BuildAsync(string[] args, CancellationToken cancellationToken = default)
    {
        var builder = WebApplication.CreateBuilder(args);
        var rung = builder.Configuration["rung"] ?? "a";
        if (!Rungs.Contains(rung))
        {
            throw new ArgumentException($"--rung: '{rung}' is not one of {string.Join(", ", Rungs)}.");
        }

        var connectionString = builder.Configuration["postgres"]
            ?? throw new ArgumentException("--postgres: a PostgreSQL connection string is required.");
        switch (rung)
        {
            case "a-gc":
                // The store's pool with its default settings, built as the store builds it, whose group-commit writer the rung's
                // writes go through.
                builder.Services.AddPostgreSqlOrderStore();
                builder.Services.AddSingleton(services => new StoreContext(new StoreOptions(), connectionString, services));
                builder.Services.AddSingleton(services => new PostgresDatabase(
                    services.GetRequiredKeyedService<NpgsqlDataSource>(PostgreSqlRegistration.PrimaryDataSource), connectionString, new StoreOptions(),
                    new PostgreSqlStoreOptions(),
                    services.GetRequiredService<ILoggerFactory>().CreateLogger<PostgresDatabase>()));
                break;
            case "a" or "b":
                builder.Services.AddSingleton(_ => NpgsqlDataSource.Create(connectionString));
                if (rung == "b")
                {
                    ContractRung.AddServices(builder.Services);
                }

                break;
            default:
                StoreRungs.AddServices(builder, rung, connectionString);
                break;
        }

        var app = builder.Build();
        app.MapGet("/health/ready", () => Results.Ok());
        switch (rung)
        {
            case "a-gc":
                var database = app.Services.GetRequiredService<PostgresDatabase>();
                new OrderSql(database.DataSource).CreateSchema();
                BareRung.Map(app, new GroupCommitOrderSql(database));
                break;
            case "a" or "b":
                var orders = new OrderSql(app.Services.GetRequiredService<NpgsqlDataSource>());
                orders.CreateSchema();
                if (rung == "a")
                {
                    BareRung.Map(app, orders);
                }
                else
                {
                    ContractRung.Map(app, orders);
                }

                break;
            default:
                await StoreRungs.MapAsync(app, rung, cancellationToken);
                break;
        }

        return app;
    }
}
