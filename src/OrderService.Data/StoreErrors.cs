using System.Data.Common;
using System.Globalization;

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

            if (current is DbException other)
            {
                return string.Create(CultureInfo.InvariantCulture, $"{other.GetType().Name} {other.SqlState ?? other.ErrorCode.ToString(CultureInfo.InvariantCulture)}: {other.Message}");
            }
        }

        return null;
    }
}
