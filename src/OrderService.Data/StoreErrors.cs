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

            if (engine is not null && DescribeDriverFault(current, engine.DriverNamespaces) is { } driverFault)
            {
                return driverFault;
            }
        }

        return null;
    }

    /// <summary>
    /// True when <paramref name="exception"/>, or one inside it, is a driver fault (<see cref="DescribeDriverFault"/>):
    /// the driver failed in its own code, maybe leaving its connection mid-reply. A driver's own error type outside
    /// it says the driver caught the fault, and knows what became of the connection.
    /// </summary>
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
    /// "<c>Type</c> inside <c>Driver.Method</c>: message" when <paramref name="exception"/> is not the driver's own error
    /// type but was thrown inside the driver: its first frame past the runtime's own helpers (System.*) is in one of
    /// <paramref name="driverNamespaces"/>. That is the driver failing on the engine's reply or on a connection it can
    /// no longer use (SqlClient's TDS parser has thrown ArgumentOutOfRangeException mid-read), so the store's fault: a
    /// 503, not the 500 that blames our code. A cancellation is never one; null for anything else. The frames are as
    /// compiled: a small accessor of the driver that a compiler inlined into our code (Native AOT does) leaves no frame
    /// of its own, and its fault reads as ours.
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
