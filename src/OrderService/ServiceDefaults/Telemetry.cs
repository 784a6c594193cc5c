using OpenTelemetry;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;
using OrderService.Data;

namespace OrderService.ServiceDefaults;

/// <summary>
/// OpenTelemetry through the core SDK (OpenTelemetry.Extensions.Hosting is not on the feed). ASP.NET Core,
/// HttpClient, Npgsql, the runtime and our stores emit their own sources and meters; we only subscribe.
/// The SDK is built only when OTEL_EXPORTER_OTLP_ENDPOINT is set: with nowhere to export, listening would
/// just create an Activity per request on the hot path.
/// </summary>
public static class Telemetry
{
    public const string EndpointKey = "OTEL_EXPORTER_OTLP_ENDPOINT";

    private static readonly string[] TraceSources = ["Microsoft.AspNetCore", "System.Net.Http", "Npgsql", StoreTelemetry.Name];

    private static readonly string[] Meters =
    [
        "Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Server.Kestrel", "System.Net.Http", "System.Runtime", "Npgsql", StoreTelemetry.Name,
    ];

    public static WebApplicationBuilder AddTelemetry(this WebApplicationBuilder builder)
    {
        var configuration = builder.Configuration;
        if (string.IsNullOrWhiteSpace(configuration[EndpointKey]))
        {
            return builder;
        }

        var serviceName = configuration["OTEL_SERVICE_NAME"] ?? "OrderService";

        // Read through IConfiguration, so the key also works from appsettings or the command line.
        var endpoint = new Uri(configuration[EndpointKey]!, UriKind.Absolute);
        var protocol = string.Equals(configuration["OTEL_EXPORTER_OTLP_PROTOCOL"], "http/protobuf", StringComparison.OrdinalIgnoreCase)
            ? OtlpExportProtocol.HttpProtobuf
            : OtlpExportProtocol.Grpc;

        // A factory registration: the container disposes the SDK (flushing the exporters) at shutdown.
        builder.Services.AddSingleton(_ => OpenTelemetrySdk.Create(otel => otel
            .ConfigureResource(resource => resource.AddService(serviceName))
            .WithTracing(tracing => tracing.AddSource(TraceSources))
            .WithMetrics(metrics => metrics.AddMeter(Meters))
            .UseOtlpExporter(protocol, endpoint)));
        builder.Services.AddHostedService<TelemetryStarter>();
        return builder;
    }

    /// <summary>Resolves the SDK at start-up, so it listens before the first request rather than after.</summary>
    private sealed class TelemetryStarter(OpenTelemetrySdk sdk) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            GC.KeepAlive(sdk);
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
