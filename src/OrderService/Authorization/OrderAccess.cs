using Microsoft.AspNetCore.Authorization;

namespace OrderService.Authorization;

/// <summary>The authorization rules, set once on a route group (the handlers stay as they are).</summary>
public static class OrderAccess
{
    /// <summary>Every endpoint needs a bearer token: orders:read for reads, orders:write for the rest.</summary>
    public static RouteGroupBuilder RequireOrderAccess(this RouteGroupBuilder group)
    {
        var routes = (IEndpointRouteBuilder)group;
        if (routes.ServiceProvider.GetService<BearerAuthorizationSwitch>() is not { IsOn: true })
        {
            return group;
        }

        group.AddEndpointFilter<CustomerScopeFilter>();
        group.ProducesProblem(StatusCodes.Status401Unauthorized).ProducesProblem(StatusCodes.Status403Forbidden);

        // Finally: it runs after each endpoint's own conventions, so it sees ReadsOnly.
        ((IEndpointConventionBuilder)group).Finally(static endpoint =>
        {
            var isGet = endpoint.Metadata.OfType<HttpMethodMetadata>()
                .Any(static m => m.HttpMethods.All(HttpMethods.IsGet));
            var readsOnly = isGet || endpoint.Metadata.Contains(ReadsOnlyMarker.Instance);
            endpoint.Metadata.Add(new AuthorizeAttribute(readsOnly ? OrderScopes.Read : OrderScopes.Write));
        });
        return group;
    }

    /// <summary>This endpoint changes nothing although its method is not GET.</summary>
    public static TBuilder ReadsOnly<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder => builder.WithMetadata(ReadsOnlyMarker.Instance);

    private sealed class ReadsOnlyMarker
    {
        public static readonly ReadsOnlyMarker Instance = new();
    }
}
