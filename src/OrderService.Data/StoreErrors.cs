using System.Data.Common;
using System.Globalization;

namespace OrderService.Data;

/// <summary>
/// Tells an engine's error from an error of our own code, and names it in the engine's own terms for the log: an engine
/// error no <see cref="ITransientFaults"/> can classify is still a store fault, a 503, not a 500.
/// </summary>
public static class StoreErrors
{
    /// <summary>The engine's code and message for an engine error, or null for any other exception.</summary>
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
                return string.Create(CultureInfo.InvariantCulture,
                    $"{other.GetType().Name} " +
                    $"{other.SqlState ?? other.ErrorCode.ToString(CultureInfo.InvariantCulture)}: {other.Message}");
            }

            if (engine is not null && DescribeDriverFault(current, engine.DriverNamespaces) is { } driverFault)
            {
                return driverFault;
            }
        }

        return null;
    }

    /// <summary>True when <paramref name="exception"/>, or one inside it, is a driver fault.</summary>
    public static bool IsDriverFault(Exception exception, ITransientFaults engine)
    {
        for (var current = exception; current is not null and not DbException; current = current.InnerException)
        {
            if (DescribeDriverFault(current, engine.DriverNamespaces) is not null)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// "<c>Type</c> inside <c>Driver.Method</c>: message" for an exception thrown inside the driver: a 503. Else null.
    /// </summary>
    public static string? DescribeDriverFault(Exception exception, IReadOnlyList<string> driverNamespaces)
    {
        if (exception is OperationCanceledException || exception.StackTrace is not { } trace)
        {
            return null;
        }

        foreach (var line in trace.AsSpan().EnumerateLines())
        {
            var frame = line.TrimStart();
            if (!frame.StartsWith("at ", StringComparison.Ordinal))
            {
                continue; // "--- End of stack trace from previous location ---" between the parts of an async trace
            }

            frame = frame[3..];
            if (frame.StartsWith("System.", StringComparison.Ordinal))
            {
                continue;
            }

            foreach (var driver in driverNamespaces)
            {
                if (frame.StartsWith(driver, StringComparison.Ordinal))
                {
                    var method = frame.IndexOf('(') is var open and >= 0 ? frame[..open] : frame;
                    return $"{exception.GetType().Name} inside {method}: {exception.Message}";
                }
            }

            return null;
        }

        return null;
    }
}
