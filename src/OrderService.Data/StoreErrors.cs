using System.Data.Common;
using System.Globalization;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace OrderService.Data;

/// <summary>
/// Tells an engine's error (a database client's or server's) from an error of our own code, and names it in the
/// engine's own terms for the log: an engine error no <see cref="ITransientFaults"/> can classify is still a store
/// fault, a 503, not a 500 that blames the service.
/// </summary>
public static class StoreErrors
{
    /// <summary>
    /// The engine's code and message for an engine error (searching inner exceptions), or null for any other exception:
    /// <paramref name="engine"/> names its own driver's errors (<see cref="ITransientFaults.DescribeError"/>).
    /// </summary>
    public static string? Describe(Exception exception, ITransientFaults? engine)
    {
        for (var current = exception; current is not null; current = current.InnerException)
        {
            if (engine?.DescribeError(current) is { } described)
            {
                return described;
            }

            var code = current switch
            {
                PostgresException postgres => $"PostgreSQL SQLSTATE {postgres.SqlState}",
                SqliteException sqlite => string.Create(CultureInfo.InvariantCulture, $"SQLite error {sqlite.SqliteErrorCode} (extended {sqlite.SqliteExtendedErrorCode})"),
                NpgsqlException npgsql => $"PostgreSQL client {npgsql.GetType().Name}",
                DbException other => string.Create(CultureInfo.InvariantCulture, $"{other.GetType().Name} {other.SqlState ?? other.ErrorCode.ToString(CultureInfo.InvariantCulture)}"),
                _ => null,
            };
            if (code is not null)
            {
                // PostgreSQL's exception message starts with the SQLSTATE again: the server's own words only.
                return $"{code}: {(current is PostgresException server ? server.MessageText : current.Message)}";
            }
        }

        return null;
    }
}
