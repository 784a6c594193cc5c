using Microsoft.AspNetCore.Authorization;

namespace OrderService.Authorization;

/// <summary>
/// The authorization rules, set once on a route group (the handlers stay as they are). When authorization is
/// off these add nothing at all: no metadata, no filter, so the request path is the same as without them.
/// </summary>
public static class OrderAccess
{
    /// <summary>
    /// Every endpoint of the group needs a bearer token: GET and the endpoints marked <see cref="ReadsOnly{TBuilder}"/>
    /// need orders:read, the others orders:write (a new endpoint is a write until it says otherwise). A token with a
    /// customer_id claim reaches only that customer's orders (<see cref="CustomerScopeFilter"/>).
    /// </summary>
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
            var isGet = endpoint.Metadata.OfType<HttpMethodMetadata>().Any(static m => m.HttpMethods.All(HttpMethods.IsGet));
            var readsOnly = isGet || endpoint.Metadata.Contains(ReadsOnlyMarker.Instance);
            endpoint.Metadata.Add(new AuthorizeAttribute(readsOnly ? OrderScopes.Read : OrderScopes.Write));
        });
        return group;
    }

    /// <summary>This endpoint changes nothing although its method is not GET (a batch read sends its ids in a body).</summary>
    public static TBuilder ReadsOnly<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder => builder.WithMetadata(ReadsOnlyMarker.Instance);

    private sealed class ReadsOnlyMarker
    {
        public static readonly ReadsOnlyMarker Instance = new();
    }
}
