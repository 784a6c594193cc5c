using System.Data.Common;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace OrderService.Data.Hosting;

/// <summary>
/// ConnectionStrings:Orders at start-up, parsed by the provider's own builder; never printed: it may hold a password.
/// </summary>
public sealed class ConnectionStringValidator(IConfiguration configuration) : IValidateOptions<StoreOptions>
{
    /// <summary>The rule in words, for the start-up error and the configuration reference alike.</summary>
    public const string Rule =
        "required unless Store:Provider=Sqlite; parsed by the provider's own driver, so a misspelt keyword stops " +
        "start-up";

    private const string Key = $"ConnectionStrings:{StoreRegistration.ConnectionStringName}";

    public ValidateOptionsResult Validate(string? name, StoreOptions options)
    {
        // ShippedStoreValidator names an unknown provider; a connection string for none cannot be judged.
        var value = configuration.GetConnectionString(StoreRegistration.ConnectionStringName);
        if (!Enum.IsDefined(options.Provider))
        {
            return ValidateOptionsResult.Success;
        }

        if (string.IsNullOrWhiteSpace(value))
        {
            return options.Provider == StoreProvider.Sqlite ? ValidateOptionsResult.Success
                : ValidateOptionsResult.Fail($"Missing setting {Key}; allowed: a {options.Provider} connection " +
                    $"string ({Rule}; docs/getting-started.md).");
        }

        return Refusal(options.Provider, value) is { } refusal
            ? ValidateOptionsResult.Fail($"Invalid setting {Key} = {Hidden}; allowed: a {options.Provider} " +
                $"connection string ({refusal}).")
            : ValidateOptionsResult.Success;
    }

    internal const string Hidden = "(value hidden: it may hold a credential)";

    /// <summary>Why <paramref name="provider"/>'s parser refuses <paramref name="text"/>; null if it takes it.
    /// </summary>
    internal static string? Refusal(StoreProvider provider, string text)
    {
        var builder = Builder(provider);
        if (builder is null)
        {
            return null;
        }

        try
        {
            builder.ConnectionString = text;
            return null;
        }
        catch (Exception exception) when (exception is ArgumentException or FormatException or KeyNotFoundException)
        {
            return exception.Message.ReplaceLineEndings(" ").Trim().TrimEnd('.');
        }
    }

    private static DbConnectionStringBuilder? Builder(StoreProvider provider) =>
        DbProviderFactories.TryGetFactory(DriverName(provider), out var factory)
            ? factory.CreateConnectionStringBuilder() : null;

    /// <summary>
    /// The name an engine registers its driver's <see cref="DbProviderFactory"/> under, to parse its strings.
    /// </summary>
    public static string DriverName(StoreProvider provider) => $"OrderService.{provider}";
}
