using System.Net.Sockets;
using Npgsql;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// Retry serialization failures (40001), deadlocks (40P01), shutdowns and connection limits, and whatever
/// Npgsql itself marks transient (lost connections, timeouts). Constraint violations and bad SQL are final.
/// A database dropped under a running service (3D000) is an outage too: 503, not 500, until it is back.
/// </summary>
public sealed class PostgresTransientFaults : ITransientFaults
{
    public bool IsTransient(Exception exception) => exception switch
    {
        PostgresException pg => pg.SqlState is "40001" or "40P01" or "57P01" or "57P02" or "57P03" or "53300" or "08006" or "08001" or "08004" or "3D000",
        NpgsqlException npgsql => npgsql.IsTransient || npgsql.InnerException is SocketException or TimeoutException or IOException,
        TimeoutException or SocketException => true,
        _ => false,
    };
}
