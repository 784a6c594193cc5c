using Microsoft.Data.Sqlite;
using Npgsql;
using OrderService.Data;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Resilience;

/// <summary>
/// An engine's error is named in the engine's own terms (what the 503's log line carries); an error of our own
/// code is not an engine's, so it stays what it is (a 500: a bug).
/// </summary>
public sealed class StoreErrorsTests
{
    [Fact]
    public void PostgreSQL_errors_carry_their_SQLSTATE() =>
        StoreErrors.Describe(new PostgresException("relation \"orders\" does not exist", "ERROR", "ERROR", "42P01"))
            .ShouldBe("PostgreSQL SQLSTATE 42P01: relation \"orders\" does not exist");

    [Fact]
    public void SQLite_errors_carry_their_result_code() =>
        StoreErrors.Describe(new SqliteException("SQLite Error 26: 'file is not a database'.", 26))
            .ShouldBe("SQLite error 26 (extended 26): SQLite Error 26: 'file is not a database'.");

    [Fact]
    public void An_engine_error_wrapped_by_our_code_is_still_found() =>
        StoreErrors.Describe(new InvalidOperationException("outer", new SqliteException("disk I/O error", 10)))
            .ShouldStartWith("SQLite error 10");

    [Fact]
    public void A_client_error_without_a_server_code_is_still_an_engine_error() =>
        StoreErrors.Describe(new NpgsqlException("Exception while reading from stream")).ShouldNotBeNull();

    [Theory]
    [InlineData(typeof(NullReferenceException))]
    [InlineData(typeof(InvalidOperationException))]
    [InlineData(typeof(ArgumentException))]
    [InlineData(typeof(FormatException))]
    public void Errors_of_our_own_code_are_not_engine_errors(Type type) =>
        StoreErrors.Describe((Exception)Activator.CreateInstance(type)!).ShouldBeNull();
}
