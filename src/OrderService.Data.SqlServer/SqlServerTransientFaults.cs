using System.ComponentModel;
using System.Globalization;
using System.Net.Sockets;
using Microsoft.Data.SqlClient;

namespace OrderService.Data.SqlServer;

/// <summary>Which SQL Server failures are worth a bounded retry, and what each says about a write in flight.</summary>
public sealed class SqlServerTransientFaults : ITransientFaults
{
    public static readonly SqlServerTransientFaults Instance = new();

    private static readonly HashSet<int> RolledBackNumbers =
    [
        1205,  // chosen as deadlock victim: the transaction was rolled back, a retry runs it again
        1222,  // lock request time-out
        1204,  // lock resources exhausted for the moment
        3960,  // snapshot update conflict: another transaction changed the row; re-running sees the new row
        8645,  // time-out waiting for memory to run the query
    ];

    /// <summary>
    /// Babelfish's number for PostgreSQL errors with no SQL Server twin; only the message tells them apart.
    /// </summary>
    public const int BabelfishUnmappedError = 33557097;

    /// <summary>PostgreSQL's errors under <see cref="BabelfishUnmappedError"/>, by how the message starts.</summary>
    private static readonly (string Start, StoreFault Fault)[] BabelfishMessages =
    [
        // SQLSTATE 40001: "... due to concurrent update" / "... due to read/write dependencies among transactions"
        ("could not serialize access", StoreFault.RolledBack),
        ("canceling statement due to lock timeout", StoreFault.RolledBack), // SQLSTATE 55P03
        ("canceling statement due to statement timeout", StoreFault.Interrupted), // 57014: statement_timeout
        ("sorry, too many clients already", StoreFault.Unreachable), // 53300: max_connections reached
        ("remaining connection slots are reserved", StoreFault.Unreachable), // 53300: only reserved slots are left
        ("too many connections for role", StoreFault.Unreachable), // 53300: the role's CONNECTION LIMIT
        ("password authentication failed", StoreFault.Unreachable), // 28P01
        ("role \"", StoreFault.Unreachable), // 28000: role "..." does not exist / is not permitted to log in
    ];

    private static readonly HashSet<int> UnreachableNumbers =
    [
        -1,    // connection error while establishing a connection
        // server / network path not found, could not open a connection (an instance that is starting or moving)
        2, 53, 40,
        10060, 10061, // TCP: connect timed out, refused
        // resource limits, service busy, database not available (Azure SQL, failovers)
        10928, 10929, 40501, 40613, 49918, 49919, 49920,
        4060, 4221, // cannot open the database yet (starting up, or a readable secondary catching up)
        18456, // login failed (an unknown login, a wrong password): the server refused the session
    ];

    private static readonly HashSet<int> InterruptedNumbers =
    [
        -2,    // client-side command or login time-out
        64, 121, 233, 258, // transport broke: network name gone, semaphore time-out, no process on the other end
        10053, 10054, // TCP: aborted, reset by peer
        40197, 40540, // the service failed over or failed while processing the request
    ];

    public StoreFault Classify(Exception exception)
    {
        for (var current = exception; current is not null; current = current.InnerException)
        {
            switch (current)
            {
                case SqlException sql:
                    return Classify(sql);
                case TimeoutException:
                    return StoreFault.Interrupted;
                case InvalidOperationException
                    when current.Message.Contains("obtaining a connection from the pool", StringComparison.Ordinal):
                    return StoreFault.Saturated;
            }
        }

        return StoreFault.Permanent;
    }

    /// <summary>What one error number says about the unit it interrupted.</summary>
    public static StoreFault ClassifyNumber(int number) =>
        RolledBackNumbers.Contains(number) ? StoreFault.RolledBack
        : UnreachableNumbers.Contains(number) ? StoreFault.Unreachable
        : InterruptedNumbers.Contains(number) ? StoreFault.Interrupted
        : StoreFault.Permanent;

    /// <summary><see cref="ClassifyNumber"/>, and the errors only the message tells apart.</summary>
    public static StoreFault ClassifyError(int number, string message) => number switch
    {
        // Permanent, default(StoreFault), where no start matches.
        BabelfishUnmappedError => BabelfishMessages.FirstOrDefault(m =>
            message.StartsWith(m.Start, StringComparison.Ordinal)).Fault,
        DuplicateKey or DuplicateIndexKey when RacedKeys.Any(k => message.Contains(k, StringComparison.Ordinal)) =>
            StoreFault.RolledBack,
        _ => ClassifyNumber(number),
    };

    private const int DuplicateKey = 2627, DuplicateIndexKey = 2601;

    private static readonly string[] RacedKeys =
        ["pk_customers", "pk_idempotency_keys", "uq_orders_id", "pk_order_events"];

    private static StoreFault Classify(SqlException exception)
    {
        // The most cautious verdict among the errors wins: one "may have committed" outweighs a "rolled back".
        var verdict = StoreFault.Permanent;
        foreach (SqlError error in exception.Errors)
        {
            var fault = ClassifyError(error.Number, error.Message);
            if (fault != StoreFault.Permanent && (verdict == StoreFault.Permanent || fault == StoreFault.Interrupted))
            {
                verdict = fault;
            }
        }

        if (verdict != StoreFault.Permanent)
        {
            return verdict;
        }

        // The network layer reports a refused or dropped connection as error 0, the socket error inside.
        return exception.Number == 0 ? NetworkFailure(exception.InnerException) : StoreFault.Permanent;
    }

    private static StoreFault NetworkFailure(Exception? inner) => inner switch
    {
        SocketException { SocketErrorCode: SocketError.ConnectionRefused or SocketError.HostNotFound
            or SocketError.HostUnreachable or SocketError.NetworkUnreachable }
            => StoreFault.Unreachable,
        SocketException or IOException or Win32Exception or TimeoutException => StoreFault.Interrupted,
        _ => StoreFault.Permanent,
    };

    public string? DescribeError(Exception exception) => exception is SqlException sql
        ? string.Create(CultureInfo.InvariantCulture,
            $"SQL Server error {sql.Number} (class {sql.Class}, state {sql.State}): {sql.Message}")
        : null;

    /// <summary>
    /// SqlClient's parser, pool and connection live under Microsoft.Data.SqlClient and its sub-namespaces.
    /// </summary>
    public IReadOnlyList<string> DriverNamespaces { get; } = ["Microsoft.Data."];
}
