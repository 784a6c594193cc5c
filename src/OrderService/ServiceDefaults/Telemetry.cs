using Npgsql;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Logs;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;
using OrderService.Data;

namespace OrderService.ServiceDefaults;

/// <summary>
/// OpenTelemetry. What the service emits is described once, whatever happens to it: ASP.NET Core, HttpClient,
/// Npgsql and SqlClient spans and metrics, the runtime's metrics and our stores' spans and
/// meter (<see cref="StoreTelemetry"/>). Providers exist, and so listen, only when something exports:
/// the OTLP exporter when OTEL_EXPORTER_OTLP_ENDPOINT is set. Without it nothing listens: no Activity is
/// sampled and recorded on the hot path, no instrument aggregates, and no log record is built.
/// (A test adds its own in-memory exporter through AddOpenTelemetry() and gets the same description.)
/// </summary>
public static class Telemetry
{
    public const string EndpointKey = "OTEL_EXPORTER_OTLP_ENDPOINT";
    public const string ServiceNameKey = "OTEL_SERVICE_NAME";
    public const string DefaultServiceName = "OrderService";

    public static WebApplicationBuilder AddTelemetry(this WebApplicationBuilder builder)
    {
        var services = builder.Services;
        var serviceName = builder.Configuration[ServiceNameKey] ?? DefaultServiceName;

        // Registrations of configuration only: none of these creates a provider, so none of them listens.
        services.ConfigureOpenTelemetryTracerProvider(tracing => DescribeTraces(tracing.ConfigureResource(resource => resource.AddService(serviceName))));
        services.ConfigureOpenTelemetryMeterProvider(metrics => DescribeMetrics(metrics.ConfigureResource(resource => resource.AddService(serviceName))));
        services.ConfigureOpenTelemetryLoggerProvider(logs => logs.ConfigureResource(resource => resource.AddService(serviceName)));

        if (!string.IsNullOrWhiteSpace(builder.Configuration[EndpointKey]))
        {
            // UseOtlpExporter reads OTEL_EXPORTER_OTLP_ENDPOINT, _PROTOCOL and _HEADERS from configuration (so the
            // keys also work from appsettings or the command line) and exports every signal. Log records carry
            // the trace and span id of the request that wrote them.
            services.AddOpenTelemetry()
                .WithTracing()
                .WithMetrics()
                .WithLogging()
                .UseOtlpExporter();
        }

        return builder;
    }

    private static void DescribeTraces(TracerProviderBuilder tracing) => tracing
        .AddAspNetCoreInstrumentation(static aspNetCore =>

            // Probes every few seconds would drown the traces that matter.
            aspNetCore.Filter = static context => !context.Request.Path.StartsWithSegments("/health", StringComparison.OrdinalIgnoreCase))
        .AddHttpClientInstrumentation()
        .AddSqlClientInstrumentation()
        .AddNpgsql()
        .AddSource(StoreTelemetry.Name);

    private static void DescribeMetrics(MeterProviderBuilder metrics) => metrics
        .AddAspNetCoreInstrumentation()
        .AddHttpClientInstrumentation()
        .AddRuntimeInstrumentation()
        .AddSqlClientInstrumentation()
        .AddNpgsqlInstrumentation()
        .AddMeter(StoreTelemetry.Name);
}
