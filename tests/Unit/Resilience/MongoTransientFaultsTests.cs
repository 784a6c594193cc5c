using System.Net;
using System.Net.Sockets;
using MongoDB.Bson;
using MongoDB.Driver;
using MongoDB.Driver.Core.Clusters;
using MongoDB.Driver.Core.Connections;
using MongoDB.Driver.Core.Servers;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Resilience;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Resilience;

/// <summary>Which driver errors the resilience pipeline retries and answers with 503, and which fail at once.</summary>
public sealed class MongoTransientFaultsTests
{
    private static readonly ConnectionId Connection = new(new ServerId(new ClusterId(), new DnsEndPoint("db.invalid", 27017)));
    private static readonly BsonDocument Command = new("findAndModify", "orders");

    public static TheoryData<string, Exception> Transient => new()
    {
        { "server selection timed out", new TimeoutException("A timeout occurred after 2000ms selecting a server") },
        { "connection refused", new MongoConnectionException(Connection, "An exception occurred while opening a connection", new SocketException((int)SocketError.ConnectionRefused)) },
        { "connection lost mid-command", new MongoConnectionClosedException(Connection) },
        { "pool paused after a failure", new MongoConnectionPoolPausedException("The connection pool is in paused state") },
        { "NotWritablePrimary", new MongoNotPrimaryException(Connection, Command, Reply(10107, "NotWritablePrimary")) },
        { "primary stepped down", new MongoNodeIsRecoveringException(Connection, Command, Reply(189, "PrimarySteppedDown")) },
        { "interrupted by an election", new MongoCommandException(Connection, "interrupted", Command, Reply(11602, "InterruptedDueToReplStateChange")) },
        { "time limit exceeded", new MongoExecutionTimeoutException(Connection, "operation exceeded time limit", Reply(50, "MaxTimeMSExpired")) },
        { "wtimeout passed", new MongoWriteConcernException(Connection, "waiting for replication timed out", new WriteConcernResult(WriteConcernReply(64))) },
        { "labelled retryable", Labelled(new MongoCommandException(Connection, "try again", Command, Reply(1, "InternalError")), "RetryableWriteError") },
        { "labelled transient (transactions)", Labelled(new MongoCommandException(Connection, "conflict", Command, Reply(112, "WriteConflict")), "TransientTransactionError") },
        { "wrapped by the caller", new InvalidOperationException("outer", new TimeoutException("inner")) },
        { "a refused login", new MongoAuthenticationException(Connection, "Unable to authenticate") },
    };

    public static TheoryData<string, Exception> Final => new()
    {
        { "a bad command", new MongoCommandException(Connection, "unknown operator", Command, Reply(2, "BadValue")) },
        { "an unexpected duplicate key", new MongoCommandException(Connection, "E11000", Command, Reply(11000, "DuplicateKey")) },
        { "FerretDB's unique clash", new MongoCommandException(Connection, "clash", Command, Reply(1, "InternalError", FerretDbClash)) },
        { "a bug of ours", new InvalidOperationException("Sequence contains no elements") },
        { "a bad URI", new MongoConfigurationException("The connection string is invalid") },
    };

    /// <summary>What each fault left behind, which decides whether the rerun rule may run the call again (RerunRule).</summary>
    public static TheoryData<string, Exception, StoreFault> WhatWasLeftBehind => new()
    {
        { "server selection timed out: nothing was sent", new TimeoutException("A timeout occurred after 2000ms selecting a server"), StoreFault.Unreachable },
        { "connection refused", new MongoConnectionException(Connection, "An exception occurred while opening a connection", new SocketException((int)SocketError.ConnectionRefused)), StoreFault.Unreachable },
        { "pool paused after a failure", new MongoConnectionPoolPausedException("The connection pool is in paused state"), StoreFault.Unreachable },
        { "NotWritablePrimary: refused before applying", new MongoNotPrimaryException(Connection, Command, Reply(10107, "NotWritablePrimary")), StoreFault.Unreachable },
        { "primary stepped down", new MongoNodeIsRecoveringException(Connection, Command, Reply(189, "PrimarySteppedDown")), StoreFault.Unreachable },
        { "no member for the read preference", new MongoCommandException(Connection, "no member", Command, Reply(133, "FailedToSatisfyReadPreference")), StoreFault.Unreachable },
        { "connection lost mid-command", new MongoConnectionClosedException(Connection), StoreFault.Interrupted },
        { "socket timed out mid-command", new MongoConnectionException(Connection, "read timed out", new TimeoutException()), StoreFault.Interrupted },
        { "interrupted by an election", new MongoCommandException(Connection, "interrupted", Command, Reply(11602, "InterruptedDueToReplStateChange")), StoreFault.Interrupted },
        { "time limit exceeded", new MongoExecutionTimeoutException(Connection, "operation exceeded time limit", Reply(50, "MaxTimeMSExpired")), StoreFault.Interrupted },
        { "wtimeout passed: applied on the primary", new MongoWriteConcernException(Connection, "waiting for replication timed out", new WriteConcernResult(WriteConcernReply(64))), StoreFault.Interrupted },
        { "labelled retryable after the driver's retry", Labelled(new MongoCommandException(Connection, "try again", Command, Reply(1, "InternalError")), "RetryableWriteError"), StoreFault.Interrupted },
        { "transaction aborted (labelled transient)", Labelled(new MongoCommandException(Connection, "conflict", Command, Reply(112, "WriteConflict")), "TransientTransactionError"), StoreFault.RolledBack },
        { "write conflict in a transaction", new MongoCommandException(Connection, "conflict", Command, Reply(112, "WriteConflict")), StoreFault.RolledBack },
        { "FerretDB: PostgreSQL's deadlock under findAndModify", new MongoCommandException(Connection, "deadlock detected", Command, Reply(16908292, "Uncategorized", "deadlock detected")), StoreFault.RolledBack },
        { "FerretDB: PostgreSQL's deadlock under an insert", InsertFailed(16908292, "deadlock detected"), StoreFault.RolledBack },
        { "FerretDB: PostgreSQL's serialization failure under an insert", InsertFailed(16777220, "could not serialize access"), StoreFault.RolledBack },
        { "an insert's duplicate key", InsertFailed(11000, "E11000 duplicate key"), StoreFault.Permanent },
        { "an unexpected duplicate key", new MongoCommandException(Connection, "E11000", Command, Reply(11000, "DuplicateKey")), StoreFault.Permanent },
        { "a refused login: nothing ran", new MongoAuthenticationException(Connection, "Unable to authenticate"), StoreFault.Unreachable },
    };

    private const string FerretDbClash = "conflicting key value violates exclusion constraint \"documents_rum_index_5\"";

    /// <summary>A unique clash as MongoDB and as FerretDB report it (MongoUniqueClash), and what it is not.</summary>
    public static TheoryData<string, MongoException, bool> Clashes => new()
    {
        { "DuplicateKey from findAndModify", new MongoCommandException(Connection, "E11000", Command, Reply(11000, "DuplicateKey")), true },
        { "FerretDB: InternalError with PostgreSQL's exclusion-constraint message", new MongoCommandException(Connection, "clash", Command, Reply(1, "InternalError", FerretDbClash)), true },
        { "another InternalError", new MongoCommandException(Connection, "boom", Command, Reply(1, "InternalError", "out of shared memory")), false },
        { "the message under another code", new MongoCommandException(Connection, "clash", Command, Reply(2, "BadValue", FerretDbClash)), false },
        { "the message inside another one", new MongoCommandException(Connection, "clash", Command, Reply(1, "InternalError", "wrapped: " + FerretDbClash)), false },
        { "a write conflict", new MongoCommandException(Connection, "conflict", Command, Reply(112, "WriteConflict")), false },
    };

    [Theory]
    [MemberData(nameof(Clashes))]
    public void A_unique_clash_is_recognised_by_code_and_message_and_nothing_looser(string situation, MongoException fault, bool clash) =>
        MongoUniqueClash.Is(fault).ShouldBe(clash, situation);

    [Theory]
    [MemberData(nameof(WhatWasLeftBehind))]
    public void Each_fault_says_what_it_left_behind(string situation, Exception fault, StoreFault expected) =>
        MongoTransientFaults.Instance.Classify(fault).ShouldBe(expected, situation);

    [Fact]
    public void Only_a_transition_whose_rerun_recognises_itself_is_rerun_after_an_interruption()
    {
        var interrupted = MongoTransientFaults.Instance.Classify(new MongoConnectionClosedException(Connection));
        var unreachable = MongoTransientFaults.Instance.Classify(new TimeoutException("selecting a server"));
        var plain = new TransitionCommand(Guid.NewGuid(), OrderService.Data.Orders.OrderAction.Pay, null, DateTimeOffset.UtcNow, new OrderService.Data.Orders.OrderEventData());

        RerunRule.Allows(RerunRule.Of(plain), interrupted).ShouldBeFalse("without a key or If-Match a rerun could apply the step twice");
        RerunRule.Allows(RerunRule.Of(plain with { IdempotencyKey = "k", RequestHash = "h" }), interrupted).ShouldBeTrue("the rerun finds the key and replays");
        RerunRule.Allows(RerunRule.Of(plain), unreachable).ShouldBeTrue("nothing was sent");
    }

    [Theory]
    [MemberData(nameof(Transient))]
    public void Outages_and_elections_are_transient(string situation, Exception fault) =>
        MongoTransientFaults.Instance.Classify(fault).ShouldNotBe(StoreFault.Permanent, situation);

    [Theory]
    [MemberData(nameof(Final))]
    public void Mistakes_fail_at_once(string situation, Exception fault) =>
        MongoTransientFaults.Instance.Classify(fault).ShouldBe(StoreFault.Permanent, situation);

    [Theory]
    [InlineData("40P01", PackedSqlState.DeadlockDetected)]
    [InlineData("40001", PackedSqlState.SerializationFailure)]
    public void The_packed_codes_are_PostgreSQLs_SQLSTATEs(string sqlState, int packed) =>
        Pack(sqlState).ShouldBe(packed);

    /// <summary>PostgreSQL's MAKE_SQLSTATE: each character's offset from '0' in six bits, the first lowest.</summary>
    private static int Pack(string sqlState)
    {
        sqlState.Length.ShouldBe(5);
        var packed = 0;
        for (var i = 0; i < 5; i++)
        {
            packed |= ((sqlState[i] - '0') & 0x3F) << (6 * i);
        }

        return packed;
    }

    /// <summary>An insert's write error as the driver reports it (WriteError has no public constructor).</summary>
    private static MongoWriteException InsertFailed(int code, string message)
    {
        var error = (WriteError)Activator.CreateInstance(typeof(WriteError), System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance, null,
            [ServerErrorCategory.Uncategorized, code, message, new BsonDocument()], null)!;
        return new MongoWriteException(Connection, error, null, null);
    }

    private static BsonDocument Reply(int code, string name, string? message = null) => new() { { "ok", 0 }, { "code", code }, { "codeName", name }, { "errmsg", message ?? name } };

    private static BsonDocument WriteConcernReply(int code) =>
        new() { { "ok", 1 }, { "n", 1 }, { "writeConcernError", new BsonDocument { { "code", code }, { "errmsg", "waiting for replication timed out" } } } };

    private static Exception Labelled(MongoException exception, string label)
    {
        exception.AddErrorLabel(label);
        return exception;
    }
}
