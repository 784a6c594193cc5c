using System.ComponentModel;
using Microsoft.Extensions.Options;

namespace OrderService.Authorization;

public enum AuthorizationMode
{
    Bearer,
    None,
}

[Description("Whether calls need a bearer token, and from which OpenID Connect authority. Outside Development the " +
    "service refuses to start until this says Bearer or None (Bearer is implied by an Authority or by " +
    "Authentication:Schemes:Bearer).")]
public sealed class AuthorizationSettings
{
    public const string SectionName = "Authorization";

    [Description("Bearer: every call but health needs a token. None: no call does. Unset: Bearer when an Authority " +
        "or Authentication:Schemes:Bearer is set, None in Development, otherwise start-up is refused.")]
    public AuthorizationMode? Mode { get; set; }

    [Description("An OpenID Connect issuer (https) whose published keys (JWKS) sign the tokens; accepted beside " +
        "Authentication:Schemes:Bearer's shared keys. Needs Audience.")]
    public string? Authority { get; set; }

    [Description("The aud a token from Authority must carry.")]
    public string? Audience { get; set; }

    /// <summary>The mode in force: the one set, else implied; null means start-up is refused.</summary>
    public static AuthorizationMode? Resolve(IConfiguration configuration, IHostEnvironment environment)
    {
        var section = configuration.GetSection(SectionName);
        if (Enum.TryParse<AuthorizationMode>(section[nameof(Mode)], ignoreCase: true, out var mode))
        {
            return mode;
        }

        if (!string.IsNullOrWhiteSpace(section[nameof(Authority)])
            || configuration.GetSection(BearerTokenOptions.SectionName).Exists())
        {
            return AuthorizationMode.Bearer;
        }

        return environment.IsDevelopment() ? AuthorizationMode.None : null;
    }
}

/// <summary>Refuses a start that would leave authorization off by accident: one line per reason.</summary>
internal sealed class AuthorizationSettingsValidator(IConfiguration configuration, IHostEnvironment environment)
    : IValidateOptions<AuthorizationSettings>
{
    public const string NotConfigured = "Authorization is not configured: set Authorization:Mode=None to serve " +
        "without tokens, or configure bearer tokens (Authorization:Authority and Authorization:Audience, or " +
        "Authentication:Schemes:Bearer); see docs/authorization.md.";

    private static readonly string[] Keys =
    [
        nameof(AuthorizationSettings.Mode), nameof(AuthorizationSettings.Authority),
        nameof(AuthorizationSettings.Audience),
    ];

    public ValidateOptionsResult Validate(string? name, AuthorizationSettings options)
    {
        const string Section = AuthorizationSettings.SectionName;
        var failures = new List<string>();
        var mode = AuthorizationSettings.Resolve(configuration, environment);
        if (mode is null)
        {
            failures.Add(NotConfigured);
        }

        // A misspelt key or scheme name would otherwise be ignored and leave authorization other than meant.
        foreach (var unknown in configuration.GetSection(Section).GetChildren()
            .Where(static c => !Keys.Contains(c.Key, StringComparer.OrdinalIgnoreCase)))
        {
            failures.Add($"{Section}:{unknown.Key} is not a setting; the section has {string.Join(", ", Keys)}.");
        }

        foreach (var scheme in configuration.GetSection("Authentication:Schemes").GetChildren()
            .Where(static c => !string.Equals(c.Key, "Bearer", StringComparison.OrdinalIgnoreCase)))
        {
            failures.Add($"Authentication:Schemes:{scheme.Key} is not a scheme of this service; the one it reads is " +
                $"{BearerTokenOptions.SectionName}.");
        }

        var bearerSection = configuration.GetSection(BearerTokenOptions.SectionName).Exists();
        var hasAuthority = !string.IsNullOrWhiteSpace(options.Authority);
        if (mode == AuthorizationMode.None && (hasAuthority || bearerSection))
        {
            var other = hasAuthority ? $"{Section}:Authority" : BearerTokenOptions.SectionName;
            failures.Add($"{Section}:Mode is None, yet {other} is set: remove one, so that it is clear whether calls " +
                "need a token.");
        }

        if (mode == AuthorizationMode.Bearer && !hasAuthority && !bearerSection)
        {
            failures.Add($"{Section}:Mode is Bearer, but no token would be accepted: set {Section}:Authority and " +
                $"{Section}:Audience, or {BearerTokenOptions.SectionName}.");
        }

        if (hasAuthority && string.IsNullOrWhiteSpace(options.Audience))
        {
            failures.Add($"{Section}:Audience is required with {Section}:Authority; without it, a token for any " +
                "audience would pass.");
        }

        if (hasAuthority && !Uri.TryCreate(options.Authority, UriKind.Absolute, out _))
        {
            failures.Add($"{Section}:Authority must be an absolute URL, such as https://login.example.com/tenant.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
