using OrderService.Apis;

namespace OrderService.ServiceDefaults;

/// <summary>The host's concerns: secrets as files, health, OpenAPI and telemetry.</summary>
public static class ServiceDefaultsExtensions
{
    /// <summary>Each file here is a setting over all other sources: its name the key (__ for :).</summary>
    public const string SecretsDirectory = "/run/secrets/orderservice";

    public static WebApplicationBuilder AddServiceDefaults(this WebApplicationBuilder builder)
    {
        builder.Configuration.AddKeyPerFile(SecretsDirectory, optional: true);
        builder.WebHost.ConfigureKestrel(static kestrel => kestrel.AddServerHeader = false);
        builder.Services.AddHealthChecks().AddCheck<OrderStoreHealthCheck>("order-store", tags: [HealthApi.ReadyTag]);
        builder.Services.AddOrderServiceOpenApi(builder.Configuration);
        builder.AddTelemetry();
        return builder;
    }

    /// <summary>Health, open to all; the OpenAPI document and Swagger UI when <c>OpenApi</c> says.</summary>
    public static WebApplication MapServiceDefaults(this WebApplication app)
    {
        app.MapHealthApi().AllowAnonymous();
        if (!OpenApiSetup.IsServed(app.Services))
        {
            return app;
        }

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
