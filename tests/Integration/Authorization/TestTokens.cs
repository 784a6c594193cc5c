using System.Security.Cryptography;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>
/// Tokens signed with a key made for this test run, and the <c>Authentication:Schemes:Bearer</c> settings
/// (the keys <c>dotnet user-jwts</c> writes) that make the service trust that key.
/// </summary>
public static class TestTokens
{
    public const string Issuer = "orderservice-tests";
    public const string Audience = "orderservice";
    public const string Section = "Authentication:Schemes:Bearer";

    private static readonly byte[] Key = RandomNumberGenerator.GetBytes(32);

    public static (string Key, string? Value)[] Settings =>
    [
        ($"{Section}:ValidIssuer", Issuer),
        ($"{Section}:ValidAudiences:0", Audience),
        ($"{Section}:SigningKeys:0:Issuer", Issuer),
        ($"{Section}:SigningKeys:0:Value", Convert.ToBase64String(Key)),
    ];

    /// <summary>
    /// A token for <paramref name="scope"/>: a string is sent as one (possibly space-delimited) string, a
    /// string[] as a JSON array, null as no scope claim at all; <paramref name="customerId"/> likewise.
    /// </summary>
    public static string Create(
        object? scope, object? customerId = null, string audience = Audience, TimeSpan? expiresIn = null,
        byte[]? key = null, string issuer = Issuer, SigningCredentials? credentials = null, string subject = "test-user")
    {
        var now = DateTime.UtcNow;
        var expires = now + (expiresIn ?? TimeSpan.FromHours(1));
        var claims = new Dictionary<string, object> { ["sub"] = subject };
        if (scope is not null)
        {
            claims["scope"] = scope;
        }

        if (customerId is not null)
        {
            claims["customer_id"] = customerId;
        }

        return new JsonWebTokenHandler().CreateToken(new SecurityTokenDescriptor
        {
            Issuer = issuer,
            Audience = audience,
            IssuedAt = expires < now ? expires - TimeSpan.FromHours(1) : now,
            NotBefore = expires < now ? expires - TimeSpan.FromHours(1) : now,
            Expires = expires,
            Claims = claims,
            SigningCredentials = credentials
                ?? new SigningCredentials(new SymmetricSecurityKey(key ?? Key), SecurityAlgorithms.HmacSha256),
        });
    }

    /// <summary>Every scope, no customer: an operator or back office that reaches every customer's orders.</summary>
    public static string Operator(string subject = "test-user") =>
        Create("orders:read orders:write orders:fulfil orders:admin", subject: subject);
}
