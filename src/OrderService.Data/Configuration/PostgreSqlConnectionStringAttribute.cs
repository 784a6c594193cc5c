using System.ComponentModel.DataAnnotations;
using System.Runtime.CompilerServices;
using Npgsql;

namespace OrderService.Data.Configuration;

/// <summary>
/// A setting that, when given, must parse as an Npgsql connection string: a misspelt keyword stops start-up with
/// one line instead of failing the first read. Empty or absent is valid (the setting is a switch).
/// </summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class PostgreSqlConnectionStringAttribute : ValidationAttribute
{
    public PostgreSqlConnectionStringAttribute()
        : base("a PostgreSQL connection string (Host=...;Database=...), or empty")
    {
    }

    public override bool IsValid(object? value) =>
        value is not string text || string.IsNullOrWhiteSpace(text) || Parses(text);

    // Its own method, not inlined: a ReadyToRun method resolves every type it names before it first runs,
    // so naming Npgsql in IsValid would load it into every process, SQLite's too.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool Parses(string text)
    {
        try
        {
            _ = new NpgsqlConnectionStringBuilder(text);
            return true;
        }
        catch (Exception exception) when (exception is ArgumentException or FormatException or KeyNotFoundException)
        {
            return false;
        }
    }
}
