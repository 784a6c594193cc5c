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

    /// <summary>
    /// Babelfish for PostgreSQL sends PostgreSQL errors that have no SQL Server twin under this one number;
    /// only the text tells them apart (PostgreSQL's own message, so the server must keep lc_messages in
    /// English, its default). Two of them clear on a retry and take the place of SQL Server's 1205/3960
    /// and 1222 there: a serialization failure (SERIALIZABLE and REPEATABLE READ are optimistic on
    /// Babelfish: the loser fails instead of waiting) and a lock time-out. Everything else under this
    /// number (a collation clash, an unsupported feature) repeats on retry and is not transient.
    /// </summary>
    public const int BabelfishUnmappedError = 33557097;

    /// <summary>The starts of the Babelfish messages under <see cref="BabelfishUnmappedError"/> that are transient.</summary>
    private static readonly string[] BabelfishTransientMessages =
    [
        "could not serialize access", // SQLSTATE 40001: "... due to concurrent update" / "... due to read/write dependencies among transactions"
        "canceling statement due to lock timeout", // SQLSTATE 55P03
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

    /// <summary>True when one server error (its number and message) describes a condition that may clear on its own.</summary>
    public static bool IsTransientError(int number, string message) =>
        IsTransientNumber(number)
        || (number == BabelfishUnmappedError && BabelfishTransientMessages.Any(m => message.StartsWith(m, StringComparison.Ordinal)));

    private static bool IsTransient(SqlException exception)
    {
        foreach (SqlError error in exception.Errors)
        {
            if (IsTransientError(error.Number, error.Message))
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
