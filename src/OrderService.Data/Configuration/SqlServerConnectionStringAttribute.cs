using System.ComponentModel.DataAnnotations;
using System.Runtime.CompilerServices;
using Microsoft.Data.SqlClient;

namespace OrderService.Data.Configuration;

/// <summary>
/// Empty, or a connection string SqlClient parses: a misspelt keyword stops start-up instead of failing on the first
/// read. The value is never echoed (it may hold a password).
/// </summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class SqlServerConnectionStringAttribute : ValidationAttribute
{
    public SqlServerConnectionStringAttribute()
        : base("a SQL Server connection string (Server=...;Database=...), or empty")
    {
    }

    public override bool IsValid(object? value) =>
        value is not string text || string.IsNullOrWhiteSpace(text) || Parses(text);

    // Its own method, not inlined: a ReadyToRun method resolves every type it names before it first runs,
    // so naming SqlClient in IsValid would load it into every process, SQLite's too.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool Parses(string text)
    {
        try
        {
            _ = new SqlConnectionStringBuilder(text);
            return true;
        }
        catch (Exception exception) when (exception is ArgumentException or FormatException or KeyNotFoundException)
        {
            return false;
        }
    }
}
