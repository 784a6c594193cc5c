using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.Extensions.Options;
using OrderService.Data;

namespace OrderService.Authorization;

public sealed record BearerAuthorizationSwitch(bool IsOn);

/// <summary>JWT bearer authorization, configured the ASP.NET Core way; fails closed outside Development.</summary>
public static class BearerAuthorization
{
    public static WebApplicationBuilder AddOrderAuthorization(this WebApplicationBuilder builder)
    {
        var configuration = builder.Configuration;
        var services = builder.Services;
        services.AddSettings<AuthorizationSettings>(AuthorizationSettings.SectionName, static (c, o) => c.Bind(o),
            new AuthorizationSettingsValidator(configuration, builder.Environment), configuration);
        var isOn = AuthorizationSettings.Resolve(configuration, builder.Environment) == AuthorizationMode.Bearer;
        services.AddSingleton(new BearerAuthorizationSwitch(isOn));
        if (!isOn)
        {
            return builder;
        }

        if (configuration.GetSection(BearerTokenOptions.SectionName).Exists())
        {
            services.AddSettings<BearerTokenOptions>(BearerTokenOptions.SectionName, static (c, o) => c.Bind(o),
                new BearerTokenOptionsValidator(configuration), configuration);
        }

        // The scheme reads its own section (Authentication:Schemes:Bearer); an Authority is added beside its keys.
        services.AddAuthentication(JwtBearerDefaults.AuthenticationScheme).AddJwtBearer();
        services.AddOptions<JwtBearerOptions>(JwtBearerDefaults.AuthenticationScheme)
            .Configure<IOptions<AuthorizationSettings>>(static (jwt, settings) => AddAuthority(jwt, settings.Value));
        var authorization = services.AddAuthorizationBuilder()
            .SetFallbackPolicy(new AuthorizationPolicyBuilder().RequireAuthenticatedUser().Build())
            .AddPolicy(OrderScopes.Admin, static policy => policy.RequireAuthenticatedUser()
                .AddRequirements(new ScopeRequirement(OrderScopes.Admin)));
        foreach (var scope in (string[])[OrderScopes.Read, OrderScopes.Write, OrderScopes.Fulfil])
        {
            authorization.AddPolicy(scope, policy => policy.RequireAuthenticatedUser()
                .AddRequirements(new ScopeRequirement(scope), OrderScopes.CustomerRequirement));
        }

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

    /// <summary>The authority's discovery document gives the issuer and keys (JWKS), beside the section's.</summary>
    private static void AddAuthority(JwtBearerOptions jwt, AuthorizationSettings settings)
    {
        if (string.IsNullOrWhiteSpace(settings.Authority))
        {
            return;
        }

        jwt.Authority = settings.Authority;
        var parameters = jwt.TokenValidationParameters;
        parameters.ValidateIssuer = true;
        parameters.ValidateAudience = true;
        parameters.ValidAudiences = [.. parameters.ValidAudiences ?? [], settings.Audience];
    }
}
