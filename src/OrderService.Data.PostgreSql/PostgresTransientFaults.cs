using System.Net.Sockets;
using Npgsql;

namespace OrderService.Data.PostgreSql;

/// <summary>Which PostgreSQL failures a rerun may heal: rolled back, never sent, or cut mid-commit.</summary>
public sealed class PostgresTransientFaults : ITransientFaults
{
    public static readonly PostgresTransientFaults Instance = new();

    /// <summary>How Npgsql words a wait for a pooled connection that ran out (it has no code of its own).</summary>
    public const string PoolExhausted = "The connection pool has been exhausted";

    /// <summary>How Citus words a statement whose worker it could not reach.</summary>
    public const string CitusRemoteNodeFailure = "connection to the remote node ";

    /// <summary>A Citus worker that is down fails only the calls that need its shards; the others answer.</summary>
    public bool IsPartialOutage(Exception exception) =>
        exception is PostgresException { SqlState: "08006" or "08001" } remote
            && remote.MessageText.StartsWith(CitusRemoteNodeFailure, StringComparison.Ordinal);

    /// <summary>
    /// Class 0A and class 42 but 42501: a missing privilege is the operator's to grant, then the store answers.
    /// </summary>
    public bool IsRefusal(Exception exception) =>
        exception is PostgresException { SqlState: var state } && (state.StartsWith("0A", StringComparison.Ordinal)
            || (state.StartsWith("42", StringComparison.Ordinal) && state != PostgresErrorCodes.InsufficientPrivilege));

    /// <summary>42P01: a table a standby has not replayed yet; on the primary it stays a refusal.</summary>
    public static bool IsUndefinedTable(Exception exception) =>
        exception is PostgresException { SqlState: PostgresErrorCodes.UndefinedTable };

    public StoreFault Classify(Exception exception) => exception switch
    {
        PostgresException pg => pg.SqlState switch
        {
            "40001" or "40P01" => StoreFault.RolledBack,
            "57P03" or "53300" or "08001" or "08004" or "3D000" or "25006" => StoreFault.Unreachable,

            // A refused login (wrong password, unknown or disallowed role): nothing sent; a 503.
            "28P01" or "28000" => StoreFault.Unreachable,
            "57P01" or "57P02" or "08006" => StoreFault.Interrupted,
            _ => StoreFault.Permanent,
        },

        // Npgsql's pool had no free connection within Timeout: nothing was sent; load on this service, not an outage.
        NpgsqlException exhausted when exhausted.Message.StartsWith(PoolExhausted, StringComparison.Ordinal) =>
            StoreFault.Saturated,

        PostgresConnectFailure => StoreFault.Unreachable,

        // Only a connect can be refused or find no route: nothing of the call reached the server.
        NpgsqlException { InnerException: SocketException { SocketErrorCode: SocketError.ConnectionRefused
            or SocketError.HostNotFound or SocketError.HostUnreachable or SocketError.NetworkUnreachable } }
            => StoreFault.Unreachable,
        NpgsqlException npgsql when npgsql.IsTransient
            || npgsql.InnerException is SocketException or TimeoutException or IOException
            => StoreFault.Interrupted,
        TimeoutException or SocketException => StoreFault.Interrupted,
        _ => StoreFault.Permanent,
    };

    /// <summary>The server's SQLSTATE and its own words, or the client's error.</summary>
    public string? DescribeError(Exception exception) => exception switch
    {
        PostgresException server => $"PostgreSQL SQLSTATE {server.SqlState}: {server.MessageText}",
        NpgsqlException client => $"PostgreSQL client {client.GetType().Name}: {client.Message}",
        _ => null,
    };

    public IReadOnlyList<string> DriverNamespaces { get; } = ["Npgsql."];
}
