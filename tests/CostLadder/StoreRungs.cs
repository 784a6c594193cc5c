extern alias service;

using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.PostgreSql;
using service::OrderService.ServiceDefaults;

namespace OrderService.CostLadder;

/// <summary>
/// Composes rungs c to f from the service's own registrations, on its default settings with Store:Provider=PostgreSql:
/// the store as a host runs it (<see cref="StoreHosting.AddOrderStore"/>: options, the store, its resilience pipeline,
/// the warm-up and the key clean-up) with the PostgreSQL engine (<see cref="PostgreSqlRegistration.AddPostgreSqlOrderStore"/>),
/// and from rung e the service's telemetry set-up. Rung c takes the provider's store from beneath the resilience decorator
/// (<see cref="StoreBundle.Store"/>); d to f take the port the service's handlers take (<see cref="IOrderStore"/>).
/// </summary>
public static class StoreRungs
{
    public static readonly IReadOnlyList<string> Rungs = ["c", "d", "e", "f"];

    public static void AddServices(WebApplicationBuilder builder, string rung, string connectionString)
    {
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            [$"{StoreOptions.SectionName}:{nameof(StoreOptions.Provider)}"] = nameof(StoreProvider.PostgreSql),
            [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = connectionString,
        });
        ContractRung.AddServices(builder.Services);
        builder.AddOrderStore();
        builder.Services.AddPostgreSqlOrderStore();
        if (rung is "e" or "f")
        {
            // What the service pays for telemetry: without OTEL_EXPORTER_OTLP_ENDPOINT this registers nothing.
            builder.AddTelemetry();
        }
    }

    /// <summary>Creates the schema (rung c's store has no schema gate of its own) and maps the rung's routes.</summary>
    public static async Task MapAsync(WebApplication app, string rung, CancellationToken cancellationToken)
    {
        await app.Services.GetRequiredService<IStoreSchema>().EnsureCreatedAsync(cancellationToken);
        var store = rung == "c" ? app.Services.GetRequiredService<StoreBundle>().Store : app.Services.GetRequiredService<IOrderStore>();
        new PortRung(store, app.Services.GetRequiredService<TimeProvider>(), keysAndETags: rung == "f").Map(app);
    }
}
