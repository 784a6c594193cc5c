using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace OrderService.Data;

/// <summary>A section bound and validated at start-up. Each failure names its key as configuration spells it; a value
/// that does not convert is one too, with what is allowed, so one run names every bad value.</summary>
public sealed partial class SectionSettings<TOptions>(
    string section, Action<IConfiguration, TOptions> bind, IValidateOptions<TOptions>? validator,
    IConfiguration? configuration) : IConfigureOptions<TOptions>, IValidateOptions<TOptions>
    where TOptions : class
{
    private readonly Regex _path = new($@"\b{Regex.Escape(section)}(\.\w+)+", RegexOptions.CultureInvariant);
    private readonly ConditionalWeakTable<TOptions, List<string>> _unconverted = [];

    public void Configure(TOptions options)
    {
        var unconverted = new List<string>();
        var keys = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (var source = configuration?.GetSection(section); source is not null;)
        {
            try
            {
                bind(source, options);
                break;
            }
            catch (InvalidOperationException failure)
                when (Unconvertible().Match(failure.Message) is { Success: true } m && keys.Add(m.Groups["key"].Value))
            {
                var key = m.Groups["key"].Value;
                unconverted.Add($"Invalid setting {key} = \"{m.Groups["value"].Value}\"; allowed: " +
                    $"{Allowed(key, m.Groups["type"].Value)}.");
                source = new ConfigurationBuilder().AddInMemoryCollection(source.AsEnumerable()
                    .Where(s => !string.Equals(s.Key, key, StringComparison.OrdinalIgnoreCase))).Build()
                    .GetSection(section);
            }
        }

        _unconverted.AddOrUpdate(options, unconverted);
    }

    public ValidateOptionsResult Validate(string? name, TOptions options)
    {
        var failures = _unconverted.TryGetValue(options, out var unconverted) ? unconverted : [];
        if (validator?.Validate(section, options) is { Failed: true } result)
        {
            failures = [.. failures, .. result.Failures.Select(f => _path.Replace(f, m => m.Value.Replace('.', ':')))];
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private string Allowed(string key, string typeName)
    {
        Type? type = typeof(TOptions);
        foreach (var name in key[(section.Length + 1)..].Split(':'))
        {
            type = type?.GetProperty(name, BindingFlags.Public | BindingFlags.Instance | BindingFlags.IgnoreCase)
                ?.PropertyType;
        }

        type = type is null ? null : Nullable.GetUnderlyingType(type) ?? type;
        return type switch
        {
            { IsEnum: true } => string.Join(", ", Enum.GetNames(type)),
            _ when type == typeof(bool) => "true, false",
            _ when type == typeof(int) || type == typeof(long) => "a whole number",
            _ => $"a {typeName} value",
        };
    }

    // The words of the binder and of its source generator (Native AOT) alike.
    [GeneratedRegex(
        @"^Failed to convert configuration value '(?<value>.*)' at '(?<key>[^']*)' to type '(?<type>[^']*)'\.$",
        RegexOptions.Singleline)]
    private static partial Regex Unconvertible();
}

public static class SectionSettings
{
    /// <summary><paramref name="bind"/> is <c>(c, o) =&gt; c.Bind(o)</c> where the type is named, for the binder's
    /// source generator (Native AOT); <paramref name="configuration"/> is the container's when null.</summary>
    public static IServiceCollection AddSettings<TOptions>(this IServiceCollection services, string section,
        Action<IConfiguration, TOptions> bind, IValidateOptions<TOptions>? validator,
        IConfiguration? configuration = null)
        where TOptions : class
    {
        services.AddOptions<TOptions>().ValidateOnStart();
        services.AddSingleton(container => new SectionSettings<TOptions>(section, bind, validator,
            configuration ?? container.GetService<IConfiguration>()));
        services.AddSingleton<IConfigureOptions<TOptions>>(
            static c => c.GetRequiredService<SectionSettings<TOptions>>());
        return services.AddSingleton<IValidateOptions<TOptions>>(
            static c => c.GetRequiredService<SectionSettings<TOptions>>());
    }
}
