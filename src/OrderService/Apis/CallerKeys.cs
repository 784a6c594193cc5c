using System.Security.Claims;
using System.Security.Cryptography;
using System.Text;
using OrderService.Authorization;

namespace OrderService.Apis;

/// <summary>
/// An Idempotency-Key as the store keeps it: the caller's own. A token's customer_id (else its subject, for a token
/// that reaches every customer) names the caller; without a token, as with authorization off, all share one namespace.
/// </summary>
internal static class CallerKeys
{
    public static string? Scoped(ClaimsPrincipal caller, string? key)
    {
        if (key is null)
        {
            return null;
        }

        // MapInboundClaims (on by default) renames sub to NameIdentifier.
        var scope = caller.FindFirst(OrderScopes.CustomerClaim) is { } customer ? "customer:" + customer.Value
            : (caller.FindFirst("sub") ?? caller.FindFirst(ClaimTypes.NameIdentifier)) is { } subject
                ? "subject:" + subject.Value
                : null;

        // A digest fits the stored key's 128 characters whatever the scope's length; a key has no newline, so the
        // text before the last one is the scope.
        return scope is null ? key
            : Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(scope + "\n" + key)));
    }
}
