using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Security.Cryptography;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.IdentityModel.Tokens;
using OrderService.Integration.Tests.Api;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>
/// An OpenID Connect authority on Kestrel (discovery document and JWKS, one RSA key) and the service set to trust it
/// with <c>Authorization:Authority</c>, alone and beside the shared HS256 key: its RS256 tokens pass; one signed by
/// another key, from another issuer or for another audience is 401.
/// </summary>
public sealed class OidcAuthorityTests(ApiHost host) : IClassFixture<ApiHost>, IAsyncLifetime
{
    private const string Audience = "orderservice-oidc";
    private const string KeyId = "authority-key";

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private readonly RSA _key = RSA.Create(2048);
    private WebApplication? _authority;
    private string _issuer = "";

    public async ValueTask InitializeAsync()
    {
        var port = FreePort.Loopback();
        _issuer = string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}");
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls(_issuer);
        builder.Logging.ClearProviders();
        _authority = builder.Build();
        var parameters = _key.ExportParameters(includePrivateParameters: false);
        var discovery = $$"""{"issuer":"{{_issuer}}","jwks_uri":"{{_issuer}}/jwks"}""";
        var jwks = $$"""
            {"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"{{KeyId}}",
            "n":"{{Base64UrlEncoder.Encode(parameters.Modulus)}}",
            "e":"{{Base64UrlEncoder.Encode(parameters.Exponent)}}"}]}
            """;
        _authority.MapGet("/.well-known/openid-configuration", () => Results.Text(discovery, "application/json"));
        _authority.MapGet("/jwks", () => Results.Text(jwks, "application/json"));
        await _authority.StartAsync(Ct);
    }

    public async ValueTask DisposeAsync()
    {
        if (_authority is not null)
        {
            await _authority.DisposeAsync();
        }

        _key.Dispose();
    }

    [Fact]
    public async Task Alone_its_tokens_pass_and_a_forged_foreign_or_misaddressed_one_is_401()
    {
        await using var service = host.Create(Settings(withSharedKey: false));
        using var client = service.CreateClient();
        using var other = RSA.Create(2048);

        var owner = ApiHost.NewCustomer();
        var order = await CreateAsync(client, Token(owner), owner);
        await ReadAsync(client, Token(owner, key: other), order, HttpStatusCode.Unauthorized);
        await ReadAsync(client, Token(owner, issuer: "http://127.0.0.1:1"), order, HttpStatusCode.Unauthorized);
        await ReadAsync(client, Token(owner, audience: TestTokens.Audience), order, HttpStatusCode.Unauthorized);
        await ReadAsync(client, TestTokens.Create("orders:read", owner), order, HttpStatusCode.Unauthorized);
        await ReadAsync(client, Token(owner), order, HttpStatusCode.OK);
    }

    [Fact]
    public async Task Beside_the_shared_key_both_kinds_of_token_pass()
    {
        await using var service = host.Create(Settings(withSharedKey: true));
        using var client = service.CreateClient();

        var owner = ApiHost.NewCustomer();
        var order = await CreateAsync(client, Token(owner), owner);
        await ReadAsync(client, TestTokens.Create("orders:read", owner), order, HttpStatusCode.OK);
        await ReadAsync(client, Token(owner), order, HttpStatusCode.OK);
    }

    private (string, string?)[] Settings(bool withSharedKey) =>
    [
        ("Authorization:Authority", _issuer),
        ("Authorization:Audience", Audience),

        // The authority here speaks plain HTTP; a real one is https, which JwtBearer requires by default.
        ("Authentication:Schemes:Bearer:RequireHttpsMetadata", "false"),
        .. withSharedKey ? TestTokens.Settings : [],
    ];

    /// <summary>A token as the authority would issue it, or forged with another key, issuer or audience.</summary>
    private string Token(string customer, RSA? key = null, string? issuer = null, string audience = Audience) =>
        TestTokens.Create("orders:read orders:write", customer, audience, issuer: issuer ?? _issuer,
            credentials: new SigningCredentials(
                new RsaSecurityKey(key ?? _key) { KeyId = KeyId }, SecurityAlgorithms.RsaSha256));

    private static async Task<Guid> CreateAsync(HttpClient client, string token, string customer)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "/orders")
        {
            Content = JsonContent.Create(ApiHost.ValidOrder(customer)),
        };
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        using var response = await client.SendAsync(request, Ct);
        return (await OrderApi.ReadOrderAsync(response, HttpStatusCode.Created)).Id;
    }

    private static async Task ReadAsync(HttpClient client, string token, Guid order, HttpStatusCode expected)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/orders/{order}");
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        using var response = await client.SendAsync(request, Ct);
        await OrderApi.ShouldHaveStatusAsync(response, expected);
    }
}
