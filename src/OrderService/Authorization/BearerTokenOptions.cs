using System.ComponentModel;
using Microsoft.Extensions.Options;

namespace OrderService.Authorization;

/// <summary><c>Authentication:Schemes:Bearer</c>, checked at start-up: JwtBearer itself lets a bad one in.</summary>
[Description("JWT bearer authorization, the section dotnet user-jwts writes and ASP.NET Core's JwtBearer reads. " +
    "Setting it implies Authorization:Mode=Bearer. Its other keys (MapInboundClaims, RequireHttpsMetadata, ...) " +
    "work as in any ASP.NET Core service.")]
public sealed class BearerTokenOptions
{
    public const string SectionName = "Authentication:Schemes:Bearer";

    [Description("The iss every token must carry. " + IssuerRule)]
    public string? ValidIssuer { get; set; }

    [Description("More accepted iss values, besides ValidIssuer. " + IssuerRule)]
    public List<string> ValidIssuers { get; set; } = [];

    [Description("The aud a token must carry. " + AudienceRule)]
    public string? ValidAudience { get; set; }

    [Description("The accepted aud values. " + AudienceRule)]
    public List<string> ValidAudiences { get; set; } = [];

    [Description("An OpenID Connect issuer whose published keys sign the tokens, instead of SigningKeys " +
        "(Authorization:Authority does the same beside them).")]
    public string? Authority { get; set; }

    [Description("Symmetric keys as dotnet user-jwts stores them; JwtBearer uses the one whose Issuer is a valid " +
        "issuer. One key per issuer, and one whose Issuer is the ValidIssuer, unless Authority is set.")]
    public List<SigningKey> SigningKeys { get; set; } = [];

    private const string IssuerRule = "Required (ValidIssuer or ValidIssuers) unless an Authority is set.";

    private const string AudienceRule =
        "At least one audience (ValidAudience or ValidAudiences): without one, a token for any audience would pass.";

    [Description("One symmetric signing key.")]
    public sealed class SigningKey
    {
        [Description("The key's id (kid).")]
        public string? Id { get; set; }

        [Description("The issuer whose tokens this key signs.")]
        public string? Issuer { get; set; }

        [Description("Base64 of the key bytes; `dotnet user-jwts key` shows one. Allowed: " +
            BearerTokenOptionsValidator.KeyRule + ".")]
        public string? Value { get; set; }
    }
}

/// <summary>Each failure names its key and says what would be accepted.</summary>
public sealed class BearerTokenOptionsValidator(IConfiguration configuration) : IValidateOptions<BearerTokenOptions>
{
    /// <summary>HS256 needs a key of at least 256 bits; a shorter one makes every token fail (IDX10720).</summary>
    public const int MinKeyBytes = 32;

    public const string KeyRule = "base64 of at least 32 bytes (HS256)";

    public ValidateOptionsResult Validate(string? name, BearerTokenOptions options)
    {
        const string Section = BearerTokenOptions.SectionName;
        var failures = new List<string>();
        var issuers = options.ValidIssuers.Append(options.ValidIssuer).Where(static i => !string.IsNullOrWhiteSpace(i))
            .ToList();
        var authorization = configuration.GetSection(AuthorizationSettings.SectionName);
        var hasAuthority = !string.IsNullOrWhiteSpace(options.Authority)
            || !string.IsNullOrWhiteSpace(authorization[nameof(AuthorizationSettings.Authority)]);

        if (issuers.Count == 0 && !hasAuthority)
        {
            failures.Add($"{Section}:ValidIssuer is required when authorization is on (the issuer every token must " +
                $"name), or set {Section}:Authority.");
        }

        if (string.IsNullOrWhiteSpace(options.ValidAudience)
            && !options.ValidAudiences.Any(static a => !string.IsNullOrWhiteSpace(a))
            && string.IsNullOrWhiteSpace(authorization[nameof(AuthorizationSettings.Audience)]))
        {
            failures.Add($"{Section}:ValidAudiences needs at least one audience when authorization is on; without " +
                $"one, a token for any audience would pass.");
        }

        for (var i = 0; i < options.SigningKeys.Count; i++)
        {
            if (!IsKey(options.SigningKeys[i].Value))
            {
                failures.Add($"{Section}:SigningKeys:{i}:Value must be {KeyRule}; `dotnet user-jwts key` shows one.");
            }
        }

        // JwtBearer looks a valid issuer's key up with SingleOrDefault: a second key for it fails every request (500).
        foreach (var shared in options.SigningKeys.Where(static k => k.Issuer is not null).GroupBy(static k => k.Issuer)
            .Where(static g => g.Count() > 1))
        {
            failures.Add($"{Section}:SigningKeys has {shared.Count()} keys for issuer '{shared.Key}'; JwtBearer " +
                $"accepts one key per issuer.");
        }

        // JwtBearer only uses a key whose Issuer is a valid issuer: any other key is silently ignored.
        if (!hasAuthority && !options.SigningKeys.Any(key => key.Issuer is not null && issuers.Contains(key.Issuer)))
        {
            failures.Add($"{Section}:SigningKeys needs a key whose Issuer is the ValidIssuer " +
                $"('{string.Join("', '", issuers)}'), or set {Section}:Authority.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static bool IsKey(string? base64)
    {
        if (string.IsNullOrWhiteSpace(base64))
        {
            return false;
        }

        var bytes = new byte[(base64.Length * 3 / 4) + 3];
        return Convert.TryFromBase64String(base64, bytes, out var written) && written >= MinKeyBytes;
    }
}
