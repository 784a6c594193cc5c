using Microsoft.Data.SqlClient;
using Microsoft.Data.Sqlite;
using MongoDB.Bson;
using MongoDB.Driver;
using Npgsql;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Data.SqlServer;
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

    // Each driver made to throw, for real, an exception that is not its own error type, from inside its own code.
    [Fact]
    public void A_fault_thrown_inside_SqlClient_is_an_engine_error() =>
        StoreErrors.Describe(Thrown(() => new SqlConnection("Bogus Keyword=1")), SqlServerTransientFaults.Instance)
            .ShouldStartWith("ArgumentException inside Microsoft.Data.");

    [Fact]
    public void A_fault_thrown_inside_Npgsql_is_an_engine_error() =>
        StoreErrors.Describe(Thrown(() => new NpgsqlConnection("Bogus Keyword=1")), new PostgresTransientFaults())
            .ShouldStartWith("ArgumentException inside Npgsql.");

    [Fact]
    public void A_fault_thrown_inside_Microsoft_Data_Sqlite_past_the_runtimes_own_frames_is_an_engine_error()
    {
        using var connection = new SqliteConnection("Data Source=:memory:");
        connection.Open();
        using var command = connection.CreateCommand();
        command.CommandText = "SELECT 'not-a-number'";
        using var reader = command.ExecuteReader();
        reader.Read();

        // decimal.Parse throws it (System.Number), called by the driver's GetDecimal.
        StoreErrors.Describe(Thrown(() => reader.GetDecimal(0)), new SqliteTransientFaults())
            .ShouldStartWith("FormatException inside Microsoft.Data.Sqlite.");
    }

    [Fact]
    public void A_fault_thrown_inside_the_MongoDB_driver_is_an_engine_error() =>
        StoreErrors.Describe(Thrown(() => BsonDocument.Parse("{ broken")), MongoTransientFaults.Instance)
            .ShouldStartWith("FormatException inside MongoDB.");

    [Fact]
    public void A_fault_inside_another_engines_driver_is_not_this_engines() =>
        StoreErrors.Describe(Thrown(() => new NpgsqlConnection("Bogus Keyword=1")), SqlServerTransientFaults.Instance).ShouldBeNull();

    [Fact]
    public void A_fault_inside_a_driver_may_leave_its_connection_mid_reply_unless_the_driver_caught_it()
    {
        var inside = Thrown(() => new NpgsqlConnection("Bogus Keyword=1"));
        var faults = PostgresTransientFaults.Instance;

        StoreErrors.IsDriverFault(new InvalidOperationException("outer", inside), faults).ShouldBeTrue();
        StoreErrors.IsDriverFault(new NpgsqlException("caught by the driver", inside), faults).ShouldBeFalse();
        StoreErrors.IsDriverFault(inside, SqlServerTransientFaults.Instance).ShouldBeFalse();
        StoreErrors.IsDriverFault(new InvalidOperationException("ours"), faults).ShouldBeFalse();
    }

    [Fact]
    public void A_fault_of_our_own_code_calling_the_runtime_is_not_an_engine_error() =>
        StoreErrors.Describe(Thrown(() => decimal.Parse("not-a-number", System.Globalization.CultureInfo.InvariantCulture)), new SqliteTransientFaults()).ShouldBeNull();

    [Fact]
    public async Task A_cancellation_inside_a_driver_is_not_an_engine_error()
    {
        await using var connection = new NpgsqlConnection("Host=127.0.0.1;Port=1;Timeout=5");
        var cancelled = await Should.ThrowAsync<OperationCanceledException>(() => connection.OpenAsync(new CancellationToken(canceled: true)));

        StoreErrors.Describe(cancelled, new PostgresTransientFaults()).ShouldBeNull();
    }

    private static Exception Thrown(Func<object> action) => Should.Throw<Exception>(() => action());
}
