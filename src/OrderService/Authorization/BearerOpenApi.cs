using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace OrderService.Authorization;

/// <summary>With authorization on, OpenAPI declares the bearer scheme and each operation's scope.</summary>
internal static class BearerOpenApi
{
    public const string DocumentName = "v1";
    private const string SchemeName = "Bearer";

    public static void Describe(OpenApiOptions options)
    {
        options.AddDocumentTransformer(static (document, _, _) =>
        {
            document.Components ??= new OpenApiComponents();
            document.Components.SecuritySchemes ??= new Dictionary<string, IOpenApiSecurityScheme>();
            document.Components.SecuritySchemes[SchemeName] = new OpenApiSecurityScheme
            {
                Type = SecuritySchemeType.Http,
                Scheme = "bearer",
                BearerFormat = "JWT",
                Description = $"A JWT with scope {OrderScopes.Read} to read, {OrderScopes.Write} to create, pay and " +
                    $"cancel, {OrderScopes.Fulfil} to ship and complete (the `scope` claim: a space-delimited " +
                    $"string or an array). A `{OrderScopes.CustomerClaim}` claim limits it to that customer's " +
                    $"orders; without one it needs {OrderScopes.Admin}.",
            };
            return Task.CompletedTask;
        });
        options.AddOperationTransformer(static (operation, context, _) =>
        {
            var scope = context.Description.ActionDescriptor.EndpointMetadata.OfType<IAuthorizeData>()
                .LastOrDefault()?.Policy;
            if (scope is null)
            {
                operation.Security = [];
                return Task.CompletedTask;
            }

            // The list stays empty: linters read an http scheme's list as OAuth2 scopes, so the scope goes in the text.
            operation.Security = [new OpenApiSecurityRequirement { [new OpenApiSecuritySchemeReference(SchemeName,
                context.Document)] = [] }];
            operation.Description = ($"{operation.Description} Needs scope `{scope}`, and a " +
                $"`{OrderScopes.CustomerClaim}` claim (only that customer's orders) or scope `{OrderScopes.Admin}`.")
                .TrimStart();
            if (operation.Responses?.TryGetValue("403", out var forbidden) == true
                && forbidden is OpenApiResponse refused)
            {
                refused.Description = $"The token lacks scope {scope}, names no customer without " +
                    $"{OrderScopes.Admin}, or names another customer in `{OrderScopes.CustomerClaim}`.";
            }

            return Task.CompletedTask;
        });
    }
}
