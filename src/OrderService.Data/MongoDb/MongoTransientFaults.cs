using System.Net.Sockets;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>
/// Which MongoDB failures are worth a bounded retry and otherwise a 503: no server could be selected in time, a
/// connection was refused or lost, the pool is paused or full, the member stepped down or is not (yet) the writable
/// primary, a write-concern wait timed out, or the server labelled the error retryable or transient. Everything else
/// (a duplicate key the store did not expect, a bad command, failed authentication) fails at once.
/// </summary>
public sealed class MongoTransientFaults : ITransientFaults
{
    public static readonly MongoTransientFaults Instance = new();

    /// <summary>
    /// Server error codes that describe a condition that clears on its own: network trouble, elections and step-downs,
    /// shutdowns, time limits, write conflicts between transactions.
    /// </summary>
    private static readonly HashSet<int> TransientCodes =
    [
        6, 7, 89, 9001,                 // HostUnreachable, HostNotFound, NetworkTimeout, SocketException
        10107, 13435, 13436,            // NotWritablePrimary, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary
        11600, 11602, 91, 189,          // InterruptedAtShutdown, InterruptedDueToReplStateChange, ShutdownInProgress, PrimarySteppedDown
        50, 262,                        // MaxTimeMSExpired, ExceededTimeLimit
        64,                             // WriteConcernFailed: wtimeout passed before w members acknowledged
        112,                            // WriteConflict (inside a transaction)
        133,                            // FailedToSatisfyReadPreference
    ];

    public bool IsTransient(Exception exception)
    {
        for (var current = exception; current is not null; current = current.InnerException)
        {
            switch (current)
            {
                case MongoAuthenticationException:
                    return false; // a MongoConnectionException, but a wrong password does not heal by itself
                case MongoException labelled when labelled.HasErrorLabel("RetryableWriteError") || labelled.HasErrorLabel("TransientTransactionError"):
                    return true;
                case MongoConnectionException or MongoConnectionPoolPausedException or MongoWaitQueueFullException
                    or MongoNotPrimaryException or MongoNodeIsRecoveringException or MongoExecutionTimeoutException:
                    return true;
                case MongoWriteConcernException concern:
                    return concern.WriteConcernResult?.Response is { } response && IsTransientWriteConcernError(response)
                        || TransientCodes.Contains(concern.Code);
                case MongoCommandException command when TransientCodes.Contains(command.Code):
                    return true;
                case MongoWriteException write when write.WriteConcernError is { } concernError && TransientCodes.Contains(concernError.Code):
                    return true;
                case TimeoutException or SocketException:
                    return true; // server selection and wait-queue time-outs are System.TimeoutException
            }
        }

        return false;
    }

    private static bool IsTransientWriteConcernError(MongoDB.Bson.BsonDocument response) =>
        response.TryGetValue("writeConcernError", out var error)
        && error.IsBsonDocument
        && error.AsBsonDocument.TryGetValue("code", out var code)
        && code.IsInt32
        && TransientCodes.Contains(code.AsInt32);
}
