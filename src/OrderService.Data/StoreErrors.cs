using System.Data.Common;
using System.Globalization;

namespace OrderService.Data;

/// <summary>
/// Tells an engine's error (raised by a database client or server: a <see cref="DbException"/> or a
/// SQL Server's or MongoDB's exceptions) from an error of our own code, and names it in the engine's own terms
/// (SQL Server's error number, PostgreSQL's SQLSTATE, SQLite's result code, MongoDB's error code) for the log.
/// An engine error that the store's <see cref="ITransientFaults"/> cannot classify is still a store fault: the
/// resilient store answers it 503 (Retry-After) and logs this description, where it would otherwise surface
/// as a 500 that blames the service for the engine's words.
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

            if (current is DbException other)
            {
                return string.Create(CultureInfo.InvariantCulture, $"{other.GetType().Name} {other.SqlState ?? other.ErrorCode.ToString(CultureInfo.InvariantCulture)}: {other.Message}");
            }
        }

        return null;
    }
}
