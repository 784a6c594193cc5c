using System.Reflection;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace OrderService.Data.Configuration;

/// <summary>One way to register an options class.</summary>
public static class SettingsRegistration
{
    /// <summary>Binds <paramref name="sectionName"/> to <typeparamref name="TOptions"/>, checked at start-up.</summary>
    public static OptionsBuilder<TOptions> AddSettings<TOptions>(this IServiceCollection services,
        IConfiguration configuration, string sectionName)
        where TOptions : class
    {
        var section = configuration.GetSection(sectionName);
        services.AddSingleton<IValidateOptions<TOptions>>(new SettingRules<TOptions>(sectionName));
        return services.AddOptions<TOptions>()
            .Configure(_ =>
            {
                // Runs before the binder, which would stop at the first value it cannot convert, unnamed.
                var unconvertible = SettingConversion.Check(section, typeof(TOptions));
                if (unconvertible.Count > 0)
                {
                    throw new OptionsValidationException(sectionName, typeof(TOptions), unconvertible);
                }
            })
            .Bind(section)
            .ValidateOnStart();
    }

    /// <summary>Checks every options class first: false once bad settings are printed; a test host throws.</summary>
    public static bool SettingsAreValid(this IHost host, TextWriter? errors = null)
    {
        try
        {
            host.Services.GetService<IStartupValidator>()?.Validate();
            return true;
        }
        catch (Exception exception) when (IsOwnProcess(host)
            && SettingsErrors.Describe(exception) is { Count: > 0 } lines)
        {
            errors ??= Console.Error;
            foreach (var line in lines)
            {
                errors.WriteLine(line);
            }

            return false;
        }
    }

    private static bool IsOwnProcess(IHost host) => string.Equals(
        Assembly.GetEntryAssembly()?.GetName().Name, host.Services.GetService<IHostEnvironment>()?.ApplicationName,
            StringComparison.Ordinal);
}
