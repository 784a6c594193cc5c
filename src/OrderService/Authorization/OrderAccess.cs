using Microsoft.AspNetCore.Authorization;

namespace OrderService.Authorization;

/// <summary>The authorization rules, set once on a route group (the handlers stay as they are).</summary>
public static class OrderAccess
{
    /// <summary>Every endpoint needs a bearer token: orders:read for reads, orders:write for the rest unless an
    /// endpoint names its own scope (<see cref="ReadsOnly"/>, <see cref="Fulfils"/>).</summary>
    public static RouteGroupBuilder RequireOrderAccess(this RouteGroupBuilder group)
    {
        var routes = (IEndpointRouteBuilder)group;
        if (routes.ServiceProvider.GetService<BearerAuthorizationSwitch>() is not { IsOn: true })
        {
            return group;
        }

        group.AddEndpointFilter<CustomerScopeFilter>();
        group.ProducesProblem(StatusCodes.Status401Unauthorized).ProducesProblem(StatusCodes.Status403Forbidden);

        // Finally: it runs after each endpoint's own conventions, so it sees their scope.
        ((IEndpointConventionBuilder)group).Finally(static endpoint =>
        {
            var isGet = endpoint.Metadata.OfType<HttpMethodMetadata>()
                .Any(static m => m.HttpMethods.All(HttpMethods.IsGet));
            var scope = endpoint.Metadata.OfType<ScopeMarker>().LastOrDefault()?.Scope
                ?? (isGet ? OrderScopes.Read : OrderScopes.Write);
            endpoint.Metadata.Add(new AuthorizeAttribute(scope));
        });
        return group;
    }

    /// <summary>This endpoint changes nothing although its method is not GET: orders:read.</summary>
    public static TBuilder ReadsOnly<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder => builder.WithMetadata(new ScopeMarker(OrderScopes.Read));

    /// <summary>A fulfilment step: orders:fulfil.</summary>
    public static TBuilder Fulfils<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder => builder.WithMetadata(new ScopeMarker(OrderScopes.Fulfil));

    private sealed record ScopeMarker(string Scope);
}
