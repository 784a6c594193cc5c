using System.Security.Claims;
using Microsoft.AspNetCore.Authorization.Infrastructure;

namespace OrderService.Authorization;

/// <summary>The scopes of docs/authorization.md; each is also the name of the policy that requires it.</summary>
public static class OrderScopes
{
    public const string Read = "orders:read";
    public const string Write = "orders:write"; // create, pay, cancel
    public const string Fulfil = "orders:fulfil"; // ship, complete

    /// <summary>Every customer's orders; without it a token must name its customer.</summary>
    public const string Admin = "orders:admin";

    /// <summary>A token with this claim reaches only that customer's orders.</summary>
    public const string CustomerClaim = "customer_id";

    /// <summary>Every customer is reached by orders:admin, never by a missing customer_id claim.</summary>
    public static readonly AssertionRequirement CustomerRequirement = new(static c =>
        c.User.HasClaim(static claim => claim.Type == CustomerClaim) || Has(c.User, Admin));

    // "scope" as RFC 8693 names it; the long name is what it becomes if an operator sets MapInboundClaims=true.
    private static readonly string[] ScopeClaimTypes =
        ["scope", "scp", "http://schemas.microsoft.com/identity/claims/scope"];

    public static string? Subject(ClaimsPrincipal user) =>
        (user.FindFirst("sub") ?? user.FindFirst(ClaimTypes.NameIdentifier))?.Value;

    /// <summary>Whether <paramref name="user"/> holds <paramref name="scope"/>, in one claim or one per item.</summary>
    public static bool Has(ClaimsPrincipal user, string scope)
    {
        foreach (var claim in user.Claims)
        {
            if (Array.IndexOf(ScopeClaimTypes, claim.Type) < 0)
            {
                continue;
            }

            var granted = claim.Value.AsSpan();
            foreach (var range in granted.Split(' '))
            {
                if (granted[range].SequenceEqual(scope))
                {
                    return true;
                }
            }
        }

        return false;
    }
}

public sealed class ScopeRequirement(string scope) : AssertionRequirement(c => OrderScopes.Has(c.User, scope))
{
    public string Scope { get; } = scope;
}
