using Microsoft.AspNetCore.Http.Metadata;

namespace OrderService.Apis;

/// <summary>
/// The request delegate generator (RDG, <c>EnableRequestDelegateGenerator</c>) writes each handler's binding code
/// at build time instead of compiling expression trees at start-up: the service reaches its first 201 about 100 ms
/// sooner (docs/performance.md, cold start). Where its output differs from the runtime factory's is set right
/// here, so the contract stays as API.md states it. (The listing's limit is parsed by OrderRequestRules.Limit: the
/// generated binder answers an unparsable optional query value with a bare 400.)
/// </summary>
public static class GeneratedHandlers
{
    /// <summary>
    /// RDG marks a handler that takes [AsParameters] but no body as accepting JSON of no type. OpenAPI would then
    /// describe a request body of type void (and fail to), and a POST without a body that names another media type
    /// would be a 415. The runtime factory adds no such metadata; removing it restores that behaviour.
    /// </summary>
    public static TBuilder WithoutUntypedBody<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder
    {
        builder.Finally(static endpoint =>
        {
            for (var i = endpoint.Metadata.Count - 1; i >= 0; i--)
            {
                if (endpoint.Metadata[i] is IAcceptsMetadata { RequestType: null })
                {
                    endpoint.Metadata.RemoveAt(i);
                }
            }
        });
        return builder;
    }
}
