using OrderService.Data;
using OrderService.Data.SqlServer;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Resilience;

public sealed class SqlServerTransientFaultsTests
{
    [Theory]
    [InlineData(1205)]  // deadlock victim
    [InlineData(-2)]    // timeout
    [InlineData(-1)]
    [InlineData(53)]
    [InlineData(233)]
    [InlineData(10053)]
    [InlineData(10054)]
    [InlineData(10060)]
    [InlineData(40613)]
    [InlineData(1222)]
    public void Deadlocks_timeouts_and_lost_connections_are_transient(int number) =>
        SqlServerTransientFaults.ClassifyNumber(number).ShouldNotBe(StoreFault.Permanent);

    [Theory]
    [InlineData(2627)]  // unique constraint
    [InlineData(2601)]  // unique index
    [InlineData(547)]   // foreign key / check
    [InlineData(102)]   // syntax
    [InlineData(207)]   // invalid column
    [InlineData(8152)]  // string or binary data would be truncated
    [InlineData(229)]   // permission denied
    public void Errors_that_repeat_on_retry_are_not_transient(int number) =>
        SqlServerTransientFaults.ClassifyNumber(number).ShouldBe(StoreFault.Permanent);

    // Babelfish for PostgreSQL sends PostgreSQL's errors without a SQL Server twin as 33557097 with PostgreSQL's
    // message: a serialization failure and a lock time-out clear on retry; the rest under that number do not.
    [Theory]
    [InlineData("could not serialize access due to concurrent update")]
    [InlineData("could not serialize access due to read/write dependencies among transactions")]
    [InlineData("canceling statement due to lock timeout")]
    public void Babelfish_serialization_failures_and_lock_timeouts_are_transient(string message) =>
        SqlServerTransientFaults.ClassifyError(SqlServerTransientFaults.BabelfishUnmappedError, message).ShouldNotBe(StoreFault.Permanent);

    // A refused session is unavailability on every store (503, nothing sent): SQL Server's login failure, and
    // PostgreSQL's connection-slot and authentication errors that Babelfish sends under its catch-all number.
    [Fact]
    public void A_refused_login_is_unreachable() =>
        SqlServerTransientFaults.ClassifyNumber(18456).ShouldBe(StoreFault.Unreachable);

    [Theory]
    [InlineData("sorry, too many clients already")] // word for word from a Babelfish 4.3 with max_connections = 8
    [InlineData("remaining connection slots are reserved for roles with the SUPERUSER attribute")]
    [InlineData("too many connections for role \"orders\"")]
    [InlineData("role \"no_such_login_57e4f21c02\" does not exist")] // word for word from Babelfish 4.3
    [InlineData("password authentication failed for user \"orders\"")]
    public void Babelfish_refused_sessions_are_unreachable(string message) =>
        SqlServerTransientFaults.ClassifyError(SqlServerTransientFaults.BabelfishUnmappedError, message).ShouldBe(StoreFault.Unreachable);

    // PostgreSQL's statement_timeout under Babelfish's catch-all number is the server's own command time-out: like -2 it
    // may have met a commit in flight.
    [Fact]
    public void A_Babelfish_statement_time_out_is_interrupted_like_a_client_time_out()
    {
        SqlServerTransientFaults.ClassifyError(SqlServerTransientFaults.BabelfishUnmappedError, "canceling statement due to statement timeout")
            .ShouldBe(StoreFault.Interrupted); // word for word from Babelfish 4.3
        SqlServerTransientFaults.ClassifyError(50000, "canceling statement due to statement timeout").ShouldBe(StoreFault.Permanent);
        SqlServerTransientFaults.ClassifyNumber(-2).ShouldBe(StoreFault.Interrupted);
    }

    [Theory]
    [InlineData(SqlServerTransientFaults.BabelfishUnmappedError, "could not determine which collation to use for string comparison")]
    [InlineData(SqlServerTransientFaults.BabelfishUnmappedError, "canceling statement due to user request")]
    [InlineData(SqlServerTransientFaults.BabelfishUnmappedError, "'WAITFOR' is not currently supported in Babelfish")]
    [InlineData(SqlServerTransientFaults.BabelfishUnmappedError, "value too long: could not serialize access")] // only the start of the message counts
    [InlineData(50000, "could not serialize access due to concurrent update")] // only under Babelfish's number
    [InlineData(50000, "sorry, too many clients already")]
    public void Other_Babelfish_errors_and_look_alike_texts_are_not_transient(int number, string message) =>
        SqlServerTransientFaults.ClassifyError(number, message).ShouldBe(StoreFault.Permanent);

    // Babelfish ignores UPDLOCK, HOLDLOCK: racing creates of one customer or one key both pass the NOT EXISTS
    // check, and the loser's INSERT fails with a duplicate key that a rerun resolves (the whole create rolled back);
    // the event key too (two transitions of one order once met there on Babelfish).
    [Theory]
    [InlineData(2627, "duplicate key value violates unique constraint \"pk_customers\"")]
    [InlineData(2627, "Violation of PRIMARY KEY constraint 'pk_idempotency_keys'. Cannot insert duplicate key in object 'dbo.idempotency_keys'.")]
    [InlineData(2601, "duplicate key value violates unique constraint \"uq_orders_id\"")]
    [InlineData(2627, "duplicate key value violates unique constraint \"pk_order_events\"")] // two transitions met on Babelfish
    public void A_duplicate_of_a_raced_key_rolled_back(int number, string message) =>
        SqlServerTransientFaults.ClassifyError(number, message).ShouldBe(StoreFault.RolledBack);

    [Theory]
    [InlineData(2627, "Violation of PRIMARY KEY constraint 'pk_order_lines'.")]
    [InlineData(2627, "Violation of UNIQUE KEY constraint 'uq_something_else'.")]
    public void Other_duplicate_keys_are_permanent(int number, string message) =>
        SqlServerTransientFaults.ClassifyError(number, message).ShouldBe(StoreFault.Permanent);

    [Fact]
    public void A_timeout_exception_is_transient_even_when_wrapped() =>
        SqlServerTransientFaults.Instance.Classify(new InvalidOperationException("outer", new TimeoutException())).ShouldNotBe(StoreFault.Permanent);

    [Fact]
    public void Ordinary_exceptions_are_not_transient()
    {
        SqlServerTransientFaults.Instance.Classify(new InvalidOperationException("bug")).ShouldBe(StoreFault.Permanent);
        SqlServerTransientFaults.Instance.Classify(new ArgumentException("bad")).ShouldBe(StoreFault.Permanent);
    }
}
