using System.Globalization;
using System.Net.Sockets;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>
/// Which MongoDB failures are worth a retry, else a 503 (a refused login too), and what each left behind.
/// </summary>
public sealed class MongoTransientFaults : ITransientFaults
{
    public static readonly MongoTransientFaults Instance = new();

    private static readonly HashSet<int> RefusedCodes =
    [
        6, 7,                           // HostUnreachable, HostNotFound
        10107, 13435, 13436,            // NotWritablePrimary, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary
        133,                            // FailedToSatisfyReadPreference
    ];

    private static readonly HashSet<int> InterruptedCodes =
    [
        89, 9001,                       // NetworkTimeout, SocketException
        // InterruptedAtShutdown, InterruptedDueToReplStateChange, ShutdownInProgress, PrimarySteppedDown
        11600, 11602, 91, 189,
        50, 262,                        // MaxTimeMSExpired, ExceededTimeLimit
        64,                             // WriteConcernFailed: wtimeout passed before w members acknowledged
    ];

    private static readonly HashSet<int> RolledBackCodes =
    [
        112,                            // WriteConflict
        PackedSqlState.DeadlockDetected,
        PackedSqlState.SerializationFailure,
    ];

    public StoreFault Classify(Exception exception)
    {
        for (var current = exception; current is not null; current = current.InnerException)
        {
            if (ClassifyOne(current) is { } fault)
            {
                return fault;
            }
        }

        return StoreFault.Permanent;
    }

    private static StoreFault? ClassifyOne(Exception exception) => exception switch
    {
        // A MongoConnectionException, caught first: the login was refused before any command ran.
        MongoAuthenticationException => StoreFault.Unreachable,
        MongoException labelled when labelled.HasErrorLabel("TransientTransactionError") => StoreFault.RolledBack,
        MongoNotPrimaryException or MongoNodeIsRecoveringException or MongoConnectionPoolPausedException
            => StoreFault.Unreachable,

        // The driver's own pool had no connection in time: nothing was sent; load on this service, not an outage.
        MongoWaitQueueFullException => StoreFault.Saturated,
        TimeoutException waiting
            when waiting.Message.StartsWith("Timed out waiting for a connection", StringComparison.Ordinal) =>
            StoreFault.Saturated,
        MongoConnectionException { InnerException: SocketException { SocketErrorCode: SocketError.ConnectionRefused
            or SocketError.HostNotFound or SocketError.HostUnreachable or SocketError.NetworkUnreachable } }
            => StoreFault.Unreachable,
        MongoConnectionException or MongoExecutionTimeoutException => StoreFault.Interrupted,
        MongoWriteConcernException concern => ByCode(WriteConcernErrorCode(concern.WriteConcernResult?.Response))
            ?? ByCode(concern.Code) ?? Retryable(concern),
        MongoCommandException command => ByCode(command.Code) ?? Retryable(command),
        MongoWriteException write => ByCode(write.WriteError?.Code) ?? ByCode(write.WriteConcernError?.Code)
            ?? Retryable(write),
        MongoException other => Retryable(other),

        // The driver throws a plain TimeoutException when no server could be selected in time: nothing was sent.
        TimeoutException => StoreFault.Unreachable,
        SocketException => StoreFault.Interrupted,
        _ => null,
    };

    private static StoreFault? Retryable(MongoException exception) =>
        exception.HasErrorLabel("RetryableWriteError") ? StoreFault.Interrupted : null;

    private static StoreFault? ByCode(int? code) =>
        code is not { } known ? null
        : RefusedCodes.Contains(known) ? StoreFault.Unreachable
        : InterruptedCodes.Contains(known) ? StoreFault.Interrupted
        : RolledBackCodes.Contains(known) ? StoreFault.RolledBack
        : null;

    private static int? WriteConcernErrorCode(MongoDB.Bson.BsonDocument? response) =>
        response is not null
        && response.TryGetValue("writeConcernError", out var error)
        && error.IsBsonDocument
        && error.AsBsonDocument.TryGetValue("code", out var code)
        && code.IsInt32
            ? code.AsInt32
            : null;

    public string? DescribeError(Exception exception)
    {
        var code = exception switch
        {
            MongoCommandException command =>
                string.Create(CultureInfo.InvariantCulture, $"MongoDB error {command.Code} ({command.CodeName})"),
            MongoWriteException write when write.WriteError is { } error =>
                string.Create(CultureInfo.InvariantCulture, $"MongoDB write error {error.Code} ({error.Category})"),
            MongoException mongo => $"MongoDB {mongo.GetType().Name}",
            _ => null,
        };
        return code is null ? null : $"{code}: {exception.Message}";
    }

    public IReadOnlyList<string> DriverNamespaces { get; } = ["MongoDB."];
}

/// <summary>PostgreSQL's SQLSTATEs as DocumentDB (under FerretDB) reports them in a MongoDB error's code.</summary>
public static class PackedSqlState
{
    public const int DeadlockDetected = 16908292;     // 40P01
    public const int SerializationFailure = 16777220; // 40001
}
