using Microsoft.Extensions.Options;

namespace OrderService.Authorization;

/// <summary>
/// The <c>Authentication:Schemes:Bearer</c> section, the one <c>dotnet user-jwts</c> writes. ASP.NET Core's
/// JwtBearer reads it itself; this class exists only to check it at start-up, because the framework
/// accepts a section that lets every token through (no audience: any audience passes) or none (no key for the
/// issuer), and a key that is not base64 would throw on the first request instead of at start-up.
/// </summary>
public sealed class BearerTokenOptions
{
    public const string SectionName = "Authentication:Schemes:Bearer";

    public string? ValidIssuer { get; set; }

    public List<string> ValidIssuers { get; set; } = [];

    public string? ValidAudience { get; set; }

    public List<string> ValidAudiences { get; set; } = [];

    /// <summary>An OpenID Connect issuer whose published keys sign the tokens; instead of <see cref="SigningKeys"/>.</summary>
    public string? Authority { get; set; }

    public List<SigningKey> SigningKeys { get; set; } = [];

    /// <summary>A symmetric key as <c>dotnet user-jwts</c> stores it: JwtBearer uses the one whose Issuer matches a valid issuer.</summary>
    public sealed class SigningKey
    {
        public string? Id { get; set; }

        public string? Issuer { get; set; }

        /// <summary>Base64 of the key bytes.</summary>
        public string? Value { get; set; }
    }
}

/// <summary>Each failure names its key and says what would be accepted.</summary>
public sealed class BearerTokenOptionsValidator : IValidateOptions<BearerTokenOptions>
{
    /// <summary>HS256 needs a key of at least 256 bits; a shorter one makes every token fail (IDX10720).</summary>
    public const int MinKeyBytes = 32;

    public ValidateOptionsResult Validate(string? name, BearerTokenOptions options)
    {
        const string Section = BearerTokenOptions.SectionName;
        var failures = new List<string>();
        var issuers = options.ValidIssuers.Append(options.ValidIssuer).Where(static i => !string.IsNullOrWhiteSpace(i)).ToList();
        var hasAuthority = !string.IsNullOrWhiteSpace(options.Authority);

        if (issuers.Count == 0 && !hasAuthority)
        {
            failures.Add($"{Section}:ValidIssuer is required when authorization is on (the issuer every token must name), or set {Section}:Authority.");
        }

        if (string.IsNullOrWhiteSpace(options.ValidAudience) && !options.ValidAudiences.Any(static a => !string.IsNullOrWhiteSpace(a)))
        {
            failures.Add($"{Section}:ValidAudiences needs at least one audience when authorization is on; without one, a token for any audience would pass.");
        }

        for (var i = 0; i < options.SigningKeys.Count; i++)
        {
            if (!IsKey(options.SigningKeys[i].Value))
            {
                failures.Add($"{Section}:SigningKeys:{i}:Value must be base64 of at least {MinKeyBytes} bytes (HS256); `dotnet user-jwts key` shows one.");
            }
        }

        // JwtBearer looks a valid issuer's key up with SingleOrDefault: a second key for it fails every request (500).
        foreach (var shared in options.SigningKeys.Where(static k => k.Issuer is not null).GroupBy(static k => k.Issuer).Where(static g => g.Count() > 1))
        {
            failures.Add($"{Section}:SigningKeys has {shared.Count()} keys for issuer '{shared.Key}'; JwtBearer accepts one key per issuer.");
        }

        // JwtBearer only uses a key whose Issuer is a valid issuer: any other key is silently ignored.
        if (!hasAuthority && !options.SigningKeys.Any(key => key.Issuer is not null && issuers.Contains(key.Issuer)))
        {
            failures.Add($"{Section}:SigningKeys needs a key whose Issuer is the ValidIssuer ('{string.Join("', '", issuers)}'), or set {Section}:Authority.");
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
