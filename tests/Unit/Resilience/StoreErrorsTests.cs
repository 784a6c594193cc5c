using Microsoft.Data.Sqlite;
using MongoDB.Driver;
using Npgsql;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
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
        StoreErrors.Describe(new PostgresException("relation \"orders\" does not exist", "ERROR", "ERROR", "42P01"), new PostgresTransientFaults())
            .ShouldBe("PostgreSQL SQLSTATE 42P01: relation \"orders\" does not exist");

    [Fact]
    public void SQLite_errors_carry_their_result_code() =>
        StoreErrors.Describe(new SqliteException("SQLite Error 26: 'file is not a database'.", 26), new SqliteTransientFaults())
            .ShouldBe("SQLite error 26 (extended 26): SQLite Error 26: 'file is not a database'.");

    [Fact]
    public void An_engine_error_wrapped_by_our_code_is_still_found() =>
        StoreErrors.Describe(new InvalidOperationException("outer", new SqliteException("disk I/O error", 10)), new SqliteTransientFaults())
            .ShouldStartWith("SQLite error 10");

    [Fact]
    public void A_client_error_without_a_server_code_is_still_an_engine_error() =>
        StoreErrors.Describe(new NpgsqlException("Exception while reading from stream"), new PostgresTransientFaults()).ShouldNotBeNull();

    [Fact]
    public void The_store_in_use_names_its_own_drivers_errors()
    {
        var wrapped = new InvalidOperationException("outer", new MongoException("connection pool paused"));
        StoreErrors.Describe(wrapped, MongoTransientFaults.Instance).ShouldBe("MongoDB MongoException: connection pool paused");
        StoreErrors.Describe(wrapped, engine: null).ShouldBeNull();
    }

    [Theory]
    [InlineData(typeof(NullReferenceException))]
    [InlineData(typeof(InvalidOperationException))]
    [InlineData(typeof(ArgumentException))]
    [InlineData(typeof(FormatException))]
    public void Errors_of_our_own_code_are_not_engine_errors(Type type) =>
        StoreErrors.Describe((Exception)Activator.CreateInstance(type)!, engine: null).ShouldBeNull();
}
