using System.Net.Sockets;
using Microsoft.Data.Sqlite;
using Npgsql;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.PostgreSql;
using OrderService.Data.SqlServer;
using OrderService.Data.Sqlite;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Resilience;

/// <summary>
/// What each store's classifier says a fault left behind: rolled back (serialization failures, deadlocks,
/// busy: rerun the whole unit), unreachable (nothing sent), interrupted (may have committed), or permanent.
/// </summary>
public sealed class TransientFaultsTests
{
    [Theory]
    [InlineData("40001", StoreFault.RolledBack)]   // serialization failure
    [InlineData("40P01", StoreFault.RolledBack)]   // deadlock detected
    [InlineData("57P03", StoreFault.Unreachable)]  // cannot connect now (starting up)
    [InlineData("53300", StoreFault.Unreachable)]  // too many connections
    [InlineData("28P01", StoreFault.Unreachable)]  // password authentication failed: a refused login
    [InlineData("28000", StoreFault.Unreachable)]  // role does not exist / may not log in
    [InlineData("25006", StoreFault.Unreachable)]  // read-only transaction: a demoted primary refused the write
    [InlineData("57P01", StoreFault.Interrupted)]  // admin shutdown: may have hit a commit in flight
    [InlineData("08006", StoreFault.Interrupted)]  // connection failure
    [InlineData("23505", StoreFault.Permanent)]    // unique violation
    [InlineData("42601", StoreFault.Permanent)]    // syntax error
    public void PostgreSQL_server_errors(string sqlState, StoreFault expected) =>
        new PostgresTransientFaults().Classify(new PostgresException("message", "ERROR", "ERROR", sqlState)).ShouldBe(expected);

    [Theory]
    [InlineData("0A000", true)]   // feature not supported: Citus's "complex joins are only supported when ..."
    [InlineData("42601", true)]   // syntax error
    [InlineData("42P01", true)]   // undefined table
    [InlineData("42501", false)]  // insufficient privilege: the operator grants it, and the store answers again
    [InlineData("23505", false)]  // unique violation: an outcome the store answers itself
    [InlineData("08006", false)]  // connection failure
    public void PostgreSQL_refusals_are_classes_0A_and_42_but_a_missing_privilege(string sqlState, bool refusal) =>
        new PostgresTransientFaults().IsRefusal(new PostgresException("message", "ERROR", "ERROR", sqlState)).ShouldBe(refusal);

    [Fact]
    public void PostgreSQL_a_Citus_worker_that_is_down_is_a_partial_outage_and_the_coordinator_down_is_not()
    {
        var faults = new PostgresTransientFaults();
        var worker = new PostgresException("connection to the remote node orders@127.0.0.1:5451 failed with the following error: Connection refused", "ERROR", "ERROR", "08006");
        faults.IsPartialOutage(worker).ShouldBeTrue();
        faults.Classify(worker).ShouldBe(StoreFault.Interrupted);
        faults.IsPartialOutage(new PostgresException("terminating connection", "FATAL", "FATAL", "08006")).ShouldBeFalse();
        faults.IsPartialOutage(new NpgsqlException("Failed to connect", new SocketException((int)SocketError.ConnectionRefused))).ShouldBeFalse();
    }

    [Fact]
    public void PostgreSQL_a_refused_connection_sent_nothing_but_a_connection_lost_mid_call_may_have_committed()
    {
        var faults = new PostgresTransientFaults();
        faults.Classify(new NpgsqlException("Failed to connect", new SocketException((int)SocketError.ConnectionRefused))).ShouldBe(StoreFault.Unreachable);
        faults.Classify(new NpgsqlException("Exception while reading from stream", new EndOfStreamException())).ShouldBe(StoreFault.Interrupted);
        faults.Classify(new NpgsqlException("Exception while reading from stream", new TimeoutException())).ShouldBe(StoreFault.Interrupted);
        faults.Classify(new InvalidOperationException("a bug")).ShouldBe(StoreFault.Permanent);
    }

    [Fact]
    public void PostgreSQL_a_connect_that_found_no_suitable_host_sent_nothing()
    {
        var faults = new PostgresTransientFaults();
        faults.Classify(new PostgresConnectFailure(new NpgsqlException("No suitable host was found."))).ShouldBe(StoreFault.Unreachable);
        faults.Classify(new NpgsqlException("No suitable host was found.")).ShouldBe(StoreFault.Permanent,
            "only the connect knows nothing was sent: the data source's open wraps what it throws");
    }

    [Theory]
    [InlineData(5, StoreFault.RolledBack)]     // SQLITE_BUSY
    [InlineData(517, StoreFault.RolledBack)]   // SQLITE_BUSY_SNAPSHOT (extended code)
    [InlineData(6, StoreFault.RolledBack)]     // SQLITE_LOCKED
    [InlineData(14, StoreFault.Unreachable)]   // SQLITE_CANTOPEN
    [InlineData(10, StoreFault.Interrupted)]   // SQLITE_IOERR: may strike during the commit
    [InlineData(19, StoreFault.Permanent)]     // SQLITE_CONSTRAINT
    [InlineData(1, StoreFault.Permanent)]      // SQLITE_ERROR (bad SQL)
    public void SQLite_result_codes(int code, StoreFault expected) =>
        new SqliteTransientFaults().Classify(new SqliteException("message", code)).ShouldBe(expected);

    [Theory]
    [InlineData(1205, StoreFault.RolledBack)]  // deadlock victim
    [InlineData(1222, StoreFault.RolledBack)]  // lock request time-out
    [InlineData(3960, StoreFault.RolledBack)]  // snapshot update conflict
    [InlineData(-1, StoreFault.Unreachable)]   // could not establish a connection
    [InlineData(10061, StoreFault.Unreachable)] // refused
    [InlineData(4060, StoreFault.Unreachable)] // cannot open database
    [InlineData(-2, StoreFault.Interrupted)]   // command time-out: may have committed
    [InlineData(10054, StoreFault.Interrupted)] // reset by peer
    [InlineData(2627, StoreFault.Permanent)]   // unique constraint
    public void SQL_Server_error_numbers(int number, StoreFault expected) =>
        SqlServerTransientFaults.ClassifyNumber(number).ShouldBe(expected);

    [Fact]
    public void A_pool_with_no_free_connection_in_time_is_saturation_on_every_driver_and_nothing_else_is()
    {
        // Each driver's own words (none has a code for it); SqlClient's two spaces are its own.
        SqlServerTransientFaults.Instance.Classify(new InvalidOperationException(
            "Timeout expired.  The timeout period elapsed prior to obtaining a connection from the pool.  This may have occurred because all pooled connections were in use and max pool size was reached."))
            .ShouldBe(StoreFault.Saturated);
        new PostgresTransientFaults().Classify(new NpgsqlException(
            "The connection pool has been exhausted, either raise 'Max Pool Size' (currently 1) or 'Timeout' (currently 1 seconds) in your connection string.", new TimeoutException()))
            .ShouldBe(StoreFault.Saturated);
        new PostgresTransientFaults().Classify(new PostgresConnectFailure(new NpgsqlException(
            "The connection pool has been exhausted, either raise 'Max Pool Size' (currently 1) or 'Timeout' (currently 1 seconds) in your connection string.", new TimeoutException())))
            .ShouldBe(StoreFault.Saturated, "the store's connect wraps it, and it stays saturation");
        MongoTransientFaults.Instance.Classify(new TimeoutException("Timed out waiting for a connection after 1000ms.")).ShouldBe(StoreFault.Saturated);

        // What is not: a server that could not be selected, and a read that timed out on the wire.
        MongoTransientFaults.Instance.Classify(new TimeoutException("A timeout occurred after 2000ms selecting a server")).ShouldBe(StoreFault.Unreachable);
        new PostgresTransientFaults().Classify(new NpgsqlException("Exception while reading from stream", new TimeoutException())).ShouldBe(StoreFault.Interrupted);
    }
}
