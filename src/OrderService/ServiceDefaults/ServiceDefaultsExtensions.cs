using OrderService.Apis;
using OrderService.Contracts;
using OrderService.Data;
using OrderService.Data.Configuration;
using OrderService.Payments;
using OrderService.Problems;

namespace OrderService.ServiceDefaults;

/// <summary>The wiring every endpoint relies on, so Program.cs stays a list of Add/Map calls.</summary>
public static class ServiceDefaultsExtensions
{
    /// <summary>JSON, problems, limits, health, OpenAPI and telemetry.</summary>
    public static WebApplicationBuilder AddServiceDefaults(this WebApplicationBuilder builder)
    {
        var services = builder.Services;
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Limits.MaxRequestBodySize = RequestLimits.MaxBodyBytes;
            kestrel.AddServerHeader = false;
        });

        services.ConfigureHttpJsonOptions(json => OrderServiceJsonContext.Configure(json.SerializerOptions));

        services.AddApiProblems();

        services.AddHealthChecks().AddCheck<OrderStoreHealthCheck>("order-store", tags: [HealthApi.ReadyTag]);
        services.AddHostedService<StoreWarmUp>();
        services.AddOrderServiceOpenApi();
        builder.AddTelemetry();
        return builder;
    }

    /// <summary>The store (with its resilience decorator) chosen by the Store:* keys.</summary>
    public static WebApplicationBuilder AddOrderStore(this WebApplicationBuilder builder)
    {
        builder.Services.AddOrderStore(builder.Configuration);
        return builder;
    }

    /// <summary>The declined-payment probe (Payments:*), off by default.</summary>
    public static WebApplicationBuilder AddPayments(this WebApplicationBuilder builder)
    {
        builder.Services.AddSettings<PaymentOptions>(builder.Configuration, PaymentOptions.SectionName);
        builder.Services.AddSingleton<PaymentAuthorizer>();
        return builder;
    }

    /// <summary>Health, the OpenAPI document and Swagger UI.</summary>
    public static WebApplication MapServiceDefaults(this WebApplication app)
    {
        app.MapHealthApi();
        app.MapOpenApi();

        // Branch so that the UI's static-file middleware only ever sees /swagger requests.
        app.MapWhen(
            static context => context.Request.Path.StartsWithSegments("/swagger", StringComparison.OrdinalIgnoreCase),
            static swagger => swagger.UseSwaggerUI(ui =>
            {
                ui.SwaggerEndpoint("/openapi/v1.json", "OrderService v1");
                ui.RoutePrefix = "swagger";
                ui.DocumentTitle = "OrderService";
            }));
        return app;
    }
}
