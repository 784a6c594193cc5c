using System.ComponentModel.DataAnnotations;

namespace OrderService.Data.Configuration;

/// <summary>A setting that, when given, must parse as <paramref name="provider"/>'s connection string.</summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class ConnectionStringOfAttribute(StoreProvider provider) : ValidationAttribute(Describe(provider))
{
    public StoreProvider Provider => provider;

    public override bool IsValid(object? value) =>
        value is not string text || string.IsNullOrWhiteSpace(text) || ConnectionStringValidator.Parses(provider, text);

    private static string Describe(StoreProvider provider) => provider switch
    {
        StoreProvider.PostgreSql => "a PostgreSQL connection string (Host=...;Database=...), or empty",
        StoreProvider.SqlServer => "a SQL Server connection string (Server=...;Database=...), or empty",
        _ => $"a {provider} connection string, or empty",
    };
}
