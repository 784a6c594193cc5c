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
        var failures = new List<string>();
        ReadConnectionString(failures, options, StoreProvider.PostgreSql, options.PostgreSql.ReadConnectionString,
            "a PostgreSQL connection string (Host=...;Database=...), or empty",
            "reads from standbys are a PostgreSQL switch");
        ReadConnectionString(failures, options, StoreProvider.SqlServer, options.SqlServer.ReadConnectionString,
            "a SQL Server connection string (Server=...;Database=...), or empty",
            "reads from a readable secondary are a SQL Server switch");

        // ShippedStoreValidator names an unknown provider; a connection string for none cannot be judged.
        var value = configuration.GetConnectionString(StoreRegistration.ConnectionStringName);
        if (!Enum.IsDefined(options.Provider))
        {
            return Result(failures);
        }

        if (string.IsNullOrWhiteSpace(value))
        {
            if (options.Provider != StoreProvider.Sqlite)
            {
                failures.Add($"Missing setting {Key}; allowed: a {options.Provider} connection string ({Rule}; " +
                    "docs/getting-started.md).");
            }
        }
        else if (Refusal(options.Provider, value) is { } refusal)
        {
            failures.Add($"Invalid setting {Key} = {Hidden}; allowed: a {options.Provider} connection string " +
                $"({refusal}).");
        }

        return Result(failures);
    }

    private static ValidateOptionsResult Result(List<string> failures) =>
        failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);

    private const string Hidden = "(value hidden: it may hold a credential)";

    private static void ReadConnectionString(List<string> failures, StoreOptions options, StoreProvider provider,
        string? value, string allowed, string reason)
    {
        var key = $"{StoreOptions.SectionName}:{provider}:ReadConnectionString";
        if (string.IsNullOrWhiteSpace(value))
        {
            return;
        }

        // Silently reading from the primary would hide a setting the operator believes is in force.
        if (options.Provider != provider)
        {
            failures.Add($"Invalid setting {key} = {Hidden}; allowed: empty unless Store:Provider={provider} " +
                $"({reason}).");
        }
        else if (Refusal(provider, value) is not null)
        {
            failures.Add($"Invalid setting {key} = {Hidden}; allowed: {allowed}.");
        }
    }

    /// <summary>Why <paramref name="provider"/>'s parser refuses <paramref name="text"/>; null if it takes it.
    /// </summary>
    private static string? Refusal(StoreProvider provider, string text)
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
