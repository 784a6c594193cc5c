using System.Data.Common;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Npgsql;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;
using OrderService.Data.Hosting;

namespace OrderService.Data.PostgreSql;

/// <summary>Offers the PostgreSQL store to the host; it is built only when Store:Provider=PostgreSql.</summary>
public static class PostgreSqlRegistration
{
    public const string PrimaryDataSource = "OrderService.Store.PostgreSql";

    /// <summary>The standby's data source: Store:PostgreSql:ReadConnectionString, tuned the same way.</summary>
    public const string StandbyDataSource = "OrderService.Store.PostgreSql.Standby";

    public static IServiceCollection AddPostgreSqlOrderStore(this IServiceCollection services)
    {
        // The options are checked before the container exists, so the driver's parser is offered where the framework
        // keeps such parsers for code that does not reference the driver.
        DbProviderFactories.RegisterFactory(ConnectionStringValidator.DriverName(StoreProvider.PostgreSql),
            NpgsqlFactory.Instance);

        return services
            .AddDataSource(PrimaryDataSource, static context => context.ConnectionString)
            .AddDataSource(StandbyDataSource,
                static context => context.Settings<PostgreSqlStoreOptions>().ReadConnectionString!)
            .AddSettings<PostgreSqlStoreOptions>(PostgreSqlStoreOptions.SectionName, static (c, o) => c.Bind(o),
                new PostgreSqlStoreOptionsValidator())
            .AddSingleton<IValidateOptions<StoreOptions>>(static container => new ReadConnectionStringValidator(
                container.GetRequiredService<IConfiguration>(), StoreProvider.PostgreSql,
                "a PostgreSQL connection string (Host=...;Database=...), or empty",
                "reads from standbys are a PostgreSQL switch"))
            .AddSingleton(new StoreEngine(StoreProvider.PostgreSql, PostgreSqlStores.Create));
    }

    // The connection strings are known only once the options are bound, so each builder takes its own from the
    // store's context.
    private static IServiceCollection AddDataSource(this IServiceCollection services, string key,
        Func<StoreContext, string> connectionString) =>
        services.AddNpgsqlDataSource(string.Empty, (container, dataSource) =>
        {
            var context = container.GetRequiredService<StoreContext>();
            PostgresDatabase.Tune(dataSource.ConnectionStringBuilder, connectionString(context), context.Options,
                context.Settings<PostgreSqlStoreOptions>());
        }, serviceKey: key);

    public static IServiceCollection AddPostgreSqlStoreTelemetry(this IServiceCollection services) => services
        .ConfigureOpenTelemetryTracerProvider(static tracing => tracing.AddNpgsql())
        .ConfigureOpenTelemetryMeterProvider(static metrics => metrics.AddNpgsqlInstrumentation());
}
