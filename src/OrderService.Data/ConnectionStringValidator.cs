using System.Data.Common;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;
using OrderService.Data.Configuration;

namespace OrderService.Data;

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
        if (options.Provider != StoreProvider.PostgreSql
            && !string.IsNullOrWhiteSpace(options.PostgreSql.ReadConnectionString))
        {
            // Silently reading from the primary would hide a setting the operator believes is in force.
            return ValidateOptionsResult.Fail(
                SettingError.Invalid("Store:PostgreSql:ReadConnectionString", options.PostgreSql.ReadConnectionString,
                "empty unless Store:Provider=PostgreSql (reads from standbys are a PostgreSQL switch)"));
        }

        if (options.Provider != StoreProvider.SqlServer
            && !string.IsNullOrWhiteSpace(options.SqlServer.ReadConnectionString))
        {
            return ValidateOptionsResult.Fail(
                SettingError.Invalid("Store:SqlServer:ReadConnectionString", options.SqlServer.ReadConnectionString,
                "empty unless Store:Provider=SqlServer (reads from a readable secondary are a SQL Server switch)"));
        }

        var value = configuration.GetConnectionString(StoreRegistration.ConnectionStringName);
        if (string.IsNullOrWhiteSpace(value))
        {
            return options.Provider == StoreProvider.Sqlite
                ? ValidateOptionsResult.Success
                : ValidateOptionsResult.Fail(
                    SettingError.Missing(Key,
                    $"a {options.Provider} connection string ({Rule}; docs/getting-started.md)"));
        }

        var builder = Builder(options.Provider);
        if (builder is null)
        {
            return ValidateOptionsResult.Success;
        }

        try
        {
            builder.ConnectionString = value;
            return ValidateOptionsResult.Success;
        }
        catch (Exception exception) when (exception is ArgumentException or FormatException or KeyNotFoundException)
        {
            return ValidateOptionsResult.Fail(
                SettingError.Invalid(Key, value,
                $"a {options.Provider} connection string ({SettingError.OneLine(exception.Message).TrimEnd('.')})"));
        }
    }

    /// <summary>True when <paramref name="provider"/>'s own parser takes <paramref name="text"/>.</summary>
    internal static bool Parses(StoreProvider provider, string text)
    {
        var builder = Builder(provider);
        if (builder is null)
        {
            return true;
        }

        try
        {
            builder.ConnectionString = text;
            return true;
        }
        catch (Exception exception) when (exception is ArgumentException or FormatException or KeyNotFoundException)
        {
            return false;
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
