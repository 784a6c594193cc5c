using System.Runtime.CompilerServices;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Logs;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;
using OrderService.Data;
using OrderService.Stores;

namespace OrderService.ServiceDefaults;

/// <summary>OpenTelemetry: what the service emits is described once, and only when something exports.</summary>
public static class Telemetry
{
    public const string EndpointKey = "OTEL_EXPORTER_OTLP_ENDPOINT";
    public const string ServiceNameKey = "OTEL_SERVICE_NAME";
    public const string DefaultServiceName = "OrderService";

    public static WebApplicationBuilder AddTelemetry(this WebApplicationBuilder builder)
    {
        if (!string.IsNullOrWhiteSpace(builder.Configuration[EndpointKey]))
        {
            ExportOverOtlp(builder.Services, builder.Configuration[ServiceNameKey] ?? DefaultServiceName);
        }

        return builder;
    }

    // Not inlined: a ReadyToRun method resolves the types it names before it first runs.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ExportOverOtlp(IServiceCollection services, string serviceName) =>

        // UseOtlpExporter reads OTEL_EXPORTER_OTLP_ENDPOINT, _PROTOCOL and _HEADERS from configuration and exports
        // every signal.
        Describe(services, serviceName)
            .AddOpenTelemetry()
            .WithTracing()
            .WithMetrics()
            .WithLogging()
            .UseOtlpExporter();

    /// <summary>What every signal holds, as configuration only.</summary>
    public static IServiceCollection Describe(IServiceCollection services, string serviceName = DefaultServiceName)
    {
        services.ConfigureOpenTelemetryTracerProvider(tracing => tracing
            .ConfigureResource(resource => resource.AddService(serviceName))
            .AddAspNetCoreInstrumentation(static aspNetCore =>

                // Probes every few seconds would drown the traces that matter.
                aspNetCore.Filter = static context =>
                    !context.Request.Path.StartsWithSegments("/health", StringComparison.OrdinalIgnoreCase))
            .AddHttpClientInstrumentation()
            .AddSource(StoreTelemetry.Name));
        services.ConfigureOpenTelemetryMeterProvider(metrics => metrics
            .ConfigureResource(resource => resource.AddService(serviceName))
            .AddAspNetCoreInstrumentation()
            .AddHttpClientInstrumentation()
            .AddRuntimeInstrumentation()
            .AddMeter(StoreTelemetry.Name, "Polly"));
        services.ConfigureOpenTelemetryLoggerProvider(logs =>
            logs.ConfigureResource(resource => resource.AddService(serviceName)));
        return services.AddStoreEngineTelemetry();
    }
}
