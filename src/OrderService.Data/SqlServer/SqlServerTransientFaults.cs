using System.ComponentModel;
using System.Net.Sockets;
using Microsoft.Data.SqlClient;

namespace OrderService.Data.SqlServer;

/// <summary>
/// Which SQL Server failures are worth a bounded retry: deadlock victims, lock and command timeouts,
/// lost or refused connections and the "database is busy / moving" family. Everything else
/// (constraint violations, syntax, permissions, conversion errors) fails at once: retrying those
/// only repeats the failure and hides the bug.
/// </summary>
public sealed class SqlServerTransientFaults : ITransientFaults
{
    public static readonly SqlServerTransientFaults Instance = new();

    /// <summary>
    /// SqlException numbers that describe a condition that may clear on its own. Negative numbers and
    /// the small ones are raised by the client or its transport, the rest by the server.
    /// </summary>
    private static readonly HashSet<int> TransientNumbers =
    [
        1205,  // chosen as deadlock victim: the transaction was rolled back, a retry runs it again
        1222,  // lock request time-out
        -2,    // client-side command or login time-out
        -1,    // connection error while establishing a connection
        2, 53, // server / network path not found (an instance that is starting or moving)
        40, 64, 121, 233, 258, // transport broke: could not open, network name gone, semaphore time-out, no process on the other end
        10053, 10054, 10060, 10061, // TCP: aborted, reset by peer, connect timed out, refused
        10928, 10929, 40197, 40501, 40613, 40540, 49918, 49919, 49920, // resource limits, service busy, database moving (Azure SQL, failovers)
        4060, 4221, // cannot open the database yet (starting up, or a readable secondary catching up)
        1204,  // lock resources exhausted for the moment
        3960,  // snapshot update conflict: another transaction changed the row; re-running sees the new row
        8645,  // time-out waiting for memory to run the query
    ];

    public bool IsTransient(Exception exception)
    {
        for (var current = exception; current is not null; current = current.InnerException)
        {
            switch (current)
            {
                case SqlException sql:
                    return IsTransient(sql);
                case TimeoutException:
                    return true;
                case InvalidOperationException when IsPoolTimeout(current):
                    return true;
            }
        }

        return false;
    }

    /// <summary>True when the error number alone marks the failure as transient.</summary>
    public static bool IsTransientNumber(int number) => TransientNumbers.Contains(number);

    private static bool IsTransient(SqlException exception)
    {
        foreach (SqlError error in exception.Errors)
        {
            if (IsTransientNumber(error.Number))
            {
                return true;
            }
        }

        // The managed (Unix) network layer reports a refused or dropped connection as error 0 with
        // severity 20 and the socket error inside; the server's own errors always carry a number.
        return exception.Number == 0 && IsNetworkFailure(exception.InnerException);
    }

    private static bool IsNetworkFailure(Exception? inner) =>
        inner is SocketException or IOException or Win32Exception or TimeoutException;

    /// <summary>
    /// The pool had no free connection within the connect time-out (every connection busy): load, not
    /// a fault in the request. SqlClient raises it as an InvalidOperationException without an error code,
    /// so its message is all there is to recognize it (always English: the build ships no satellite resource
    /// assemblies, see SatelliteResourceLanguages in Directory.Build.props).
    /// </summary>
    private static bool IsPoolTimeout(Exception exception) =>
        exception.Message.Contains("obtaining a connection from the pool", StringComparison.Ordinal);
}
