using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.Extensions.Options;

namespace OrderService.Authorization;

/// <summary>Whether <c>Authentication:Schemes:Bearer</c> is configured; read once at start-up.</summary>
public sealed record BearerAuthorizationSwitch(bool IsOn);

/// <summary>Optional JWT bearer authorization, configured the ASP.NET Core way.</summary>
public static class BearerAuthorization
{
    public static WebApplicationBuilder AddOrderAuthorization(this WebApplicationBuilder builder)
    {
        var isOn = builder.Configuration.GetSection(BearerTokenOptions.SectionName).Exists();
        var services = builder.Services;
        services.AddSingleton(new BearerAuthorizationSwitch(isOn));
        if (!isOn)
        {
            return builder;
        }

        services.AddOptions<BearerTokenOptions>()
            .Bind(builder.Configuration.GetSection(BearerTokenOptions.SectionName))
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<BearerTokenOptions>, BearerTokenOptionsValidator>();

        // The scheme reads its own section (Authentication:Schemes:Bearer); nothing is set in code.
        services.AddAuthentication(JwtBearerDefaults.AuthenticationScheme).AddJwtBearer();
        services.AddAuthorizationBuilder()
            .AddPolicy(OrderScopes.Read, static policy => policy.RequireAuthenticatedUser()
                .AddRequirements(new ScopeRequirement(OrderScopes.Read)))
            .AddPolicy(OrderScopes.Write, static policy => policy.RequireAuthenticatedUser()
                .AddRequirements(new ScopeRequirement(OrderScopes.Write)));
        services.AddSingleton<IAuthorizationMiddlewareResultHandler, ProblemAuthorizationResultHandler>();
        services.Configure<OpenApiOptions>(BearerOpenApi.DocumentName, static options =>
            BearerOpenApi.Describe(options));
        return builder;
    }

    /// <summary>After <c>UseApiProblems</c>, so that a fault in a token handler still becomes a problem.</summary>
    public static WebApplication UseOrderAuthorization(this WebApplication app)
    {
        if (app.Services.GetRequiredService<BearerAuthorizationSwitch>().IsOn)
        {
            app.UseAuthentication();
            app.UseAuthorization();
        }

        return app;
    }
}
