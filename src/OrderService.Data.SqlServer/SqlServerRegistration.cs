using System.Data.Common;
using Microsoft.Data.SqlClient;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;
using OrderService.Data.Hosting;

namespace OrderService.Data.SqlServer;

/// <summary>Offers the SQL Server store to the host; it is built only when Store:Provider=SqlServer.</summary>
public static class SqlServerRegistration
{
    public static IServiceCollection AddSqlServerOrderStore(this IServiceCollection services)
    {
        // The options are checked before the container exists, so the driver's parser is offered where the framework
        // keeps such parsers for code that does not reference the driver.
        DbProviderFactories.RegisterFactory(ConnectionStringValidator.DriverName(StoreProvider.SqlServer),
            SqlClientFactory.Instance);
        return services
            .AddSettings<SqlServerStoreOptions>(SqlServerStoreOptions.SectionName, static (c, o) => c.Bind(o), null)
            .AddSingleton<IValidateOptions<StoreOptions>>(static container => new ReadConnectionStringValidator(
                container.GetRequiredService<IConfiguration>(), StoreProvider.SqlServer,
                "a SQL Server connection string (Server=...;Database=...), or empty",
                "reads from a readable secondary are a SQL Server switch"))
            .AddSingleton(new StoreEngine(StoreProvider.SqlServer, SqlServerStores.Create));
    }

    /// <summary>SqlClient's spans and metrics, for a host that exports them.</summary>
    public static IServiceCollection AddSqlServerStoreTelemetry(this IServiceCollection services) => services
        .ConfigureOpenTelemetryTracerProvider(static tracing => tracing.AddSqlClientInstrumentation())
        .ConfigureOpenTelemetryMeterProvider(static metrics => metrics.AddSqlClientInstrumentation());
}
