using System.Security.Claims;
using System.Security.Cryptography;
using System.Text;
using OrderService.Authorization;

namespace OrderService.Apis;

/// <summary>An Idempotency-Key as stored: the caller's own, named by the token's customer_id, else its sub (renamed
/// NameIdentifier by MapInboundClaims). Without a token, as with authorization off, all share one namespace.</summary>
internal static class CallerKeys
{
    public static string? Scoped(ClaimsPrincipal caller, string? key)
    {
        if (key is null)
        {
            return null;
        }

        var scope = caller.FindFirst(OrderScopes.CustomerClaim) is { } customer ? "customer:" + customer.Value
            : OrderScopes.Subject(caller) is { } subject ? "subject:" + subject
            : null;

        // A digest fits the 128-character column whatever the scope; a key has no newline, so the split is unique.
        return scope is null ? key
            : Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(scope + "\n" + key)));
    }
}
