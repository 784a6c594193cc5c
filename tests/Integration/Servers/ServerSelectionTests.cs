using DotNet.Testcontainers.Configurations;
using Npgsql;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Servers;

/// <summary>
/// The order every database fixture picks its server in (<see cref="TestServers"/>): the ORDERS_TEST_* connection
/// string, then a Testcontainers container, then (PostgreSQL only) a throwaway cluster, then a skip with every reason.
/// Environments are passed in, so each test sets exactly what it needs; Docker and the cluster are real.
/// </summary>
public sealed class ServerSelectionTests
{
    // An image whose registry is a closed loopback port: its pull fails at once on any machine, online or not.
    private const string UnpullableImage = "127.0.0.1:9/orders-test/absent:0";

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public static TheoryData<string, string> Kinds => new()
    {
        { "MongoDB", TestServers.MongoDbVariable },
        { "SQL Server", TestServers.SqlServerVariable },
        { "PG", TestServers.PostgresVariable },
    };

    [Theory]
    [MemberData(nameof(Kinds))]
    public async Task A_connection_string_in_the_environment_is_used_and_nothing_else_is_tried(string kind, string variable)
    {
        var given = $"Server=given-for-{variable}";
        var environment = Environment((variable, given));

        // A Docker endpoint that would fail if asked proves the container was never tried.
        await using var server = await ServerSelection.SelectAsync(kind, Candidates(variable, environment, ClosedDockerEndpoint()), Ct);

        server.ConnectionString.ShouldBe(given);
        server.SkipReason.ShouldBeNull();
        server.Source.ShouldBe(variable);
        server.Attempts.ShouldBe([$"{variable}: used"]);
        server.Owner.ShouldBeNull("a server given from outside is never stopped by the tests");
    }

    [Theory]
    [InlineData("MongoDB", TestServers.MongoDbVariable)]
    [InlineData("SQL Server", TestServers.SqlServerVariable)]
    public async Task With_no_connection_string_and_no_Docker_answering_the_server_is_skipped_with_each_reason(string kind, string variable)
    {
        var docker = ClosedDockerEndpoint();

        await using var server = await ServerSelection.SelectAsync(kind, Candidates(variable, Environment(), docker), Ct);

        server.IsAvailable.ShouldBeFalse();
        server.ConnectionString.ShouldBeNull();
        server.Attempts.Count.ShouldBe(2);
        server.Attempts[0].ShouldBe($"{variable}: {variable} is not set");
        server.Attempts[1].ShouldContain($"the Docker endpoint {docker} does not answer");
        server.SkipReason.ShouldNotBeNull();
        server.SkipReason.ShouldStartWith($"No {kind} server for the tests:");
        server.SkipReason.ShouldContain($"{variable} is not set");
        server.SkipReason.ShouldContain("does not answer");
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    public async Task With_no_connection_string_and_no_Docker_answering_the_relational_choice_falls_through_to_a_throwaway_cluster()
    {
        SkipWithoutLocalBinaries();

        await using var server = await ServerSelection.SelectAsync(
            "PostgreSQL", TestServers.PostgreSqlCandidates(Environment(), ClosedDockerEndpoint()), Ct);

        server.SkipReason.ShouldBeNull();
        server.Source.ShouldBe(new LocalPostgresCandidate().Name);
        server.Attempts[1].ShouldContain("does not answer");
        server.Owner.ShouldBeOfType<ThrowawayPostgres>();
        (await SelectOneAsync(server.ConnectionString!)).ShouldBe(1);
    }

    [Fact]
    public async Task A_failed_pull_falls_through_to_the_next_choice_with_Docker_s_reason_logged()
    {
        var docker = AnsweringDockerEndpoint();
        SkipWithoutLocalBinaries();
        var environment = Environment(($"{TestServers.PostgresVariable}_IMAGE", UnpullableImage));

        await using var server = await ServerSelection.SelectAsync("PostgreSQL", TestServers.PostgreSqlCandidates(environment, docker), Ct);

        server.Attempts.Count.ShouldBe(3);
        server.Attempts[1].ShouldStartWith($"Testcontainers ({UnpullableImage}): Docker answers at {docker}, but the image {UnpullableImage} is not present and could not be pulled (");
        server.Source.ShouldBe(new LocalPostgresCandidate().Name);
        (await SelectOneAsync(server.ConnectionString!)).ShouldBe(1);
    }

    [Fact]
    public async Task A_failed_pull_with_nothing_after_it_skips_with_Docker_s_reason()
    {
        var docker = AnsweringDockerEndpoint();
        var environment = Environment(($"{TestServers.MongoDbVariable}_IMAGE", UnpullableImage));

        await using var server = await ServerSelection.SelectAsync("MongoDB", TestServers.MongoDbCandidates(environment, docker), Ct);

        server.IsAvailable.ShouldBeFalse();
        server.SkipReason.ShouldNotBeNull();
        server.SkipReason.ShouldContain($"the image {UnpullableImage} is not present and could not be pulled");
    }

    [Fact]
    public async Task The_shared_MongoDB_selection_is_made_once_per_test_process()
    {
        var first = await TestServers.MongoDbAsync();
        var second = await TestServers.MongoDbAsync();

        second.ShouldBeSameAs(first);
        (first.ConnectionString is null).ShouldBe(first.SkipReason is not null, "exactly one of a server or a reason");
    }

    private static IEnumerable<ServerCandidate> Candidates(string variable, Func<string, string?> environment, Uri docker) => variable switch
    {
        TestServers.MongoDbVariable => TestServers.MongoDbCandidates(environment, docker),
        TestServers.SqlServerVariable => TestServers.SqlServerCandidates(environment, docker),
        _ => TestServers.PostgreSqlCandidates(environment, docker),
    };

    private static Func<string, string?> Environment(params (string Name, string Value)[] variables)
    {
        var values = variables.ToDictionary(v => v.Name, v => v.Value, StringComparer.Ordinal);
        return name => values.GetValueOrDefault(name);
    }

    /// <summary>A Docker endpoint where nothing listens.</summary>
    private static Uri ClosedDockerEndpoint() => new($"tcp://127.0.0.1:{FreePort.Loopback()}");

    /// <summary>The Docker endpoint Testcontainers finds, or a skip: these tests need a real engine (dockerd) to refuse a pull.</summary>
    private static Uri AnsweringDockerEndpoint() =>
        TestcontainersSettings.OS.DockerEndpointAuthConfig?.Endpoint
        ?? throw SkipNow("No Docker engine answers Testcontainers here (DOCKER_HOST, /var/run/docker.sock; an engine older than API 1.44 " +
                        "also needs DOCKER_API_VERSION, which scripts/test.sh sets), so a failed pull cannot be shown. Start one (e.g. dockerd) to run this test.");

    private static void SkipWithoutLocalBinaries()
    {
        if (ThrowawayPostgres.FindBinDirectory() is null)
        {
            throw SkipNow("No local PostgreSQL binaries (initdb, pg_ctl) to fall through to; scripts/test.sh installs them.");
        }
    }

    private static Exception SkipNow(string reason)
    {
        Assert.Skip(reason);
        return new InvalidOperationException(reason);
    }

    private static async Task<int> SelectOneAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(Ct);
        await using var command = new NpgsqlCommand("SELECT 1", connection);
        return (int)(await command.ExecuteScalarAsync(Ct))!;
    }
}
