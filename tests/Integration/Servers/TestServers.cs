using System.Collections.Concurrent;
using OrderService.Testing;
using Testcontainers.MongoDb;
using Testcontainers.MsSql;
using Testcontainers.PostgreSql;

namespace OrderService.Integration.Tests.Servers;

/// <summary>
/// Where every database fixture gets its server, in one order:
/// <list type="number">
/// <item>the connection string in <c>ORDERS_TEST_POSTGRES</c> / <c>ORDERS_TEST_SQLSERVER</c> / <c>ORDERS_TEST_MONGODB</c>;</item>
/// <item>a Testcontainers container, when a Docker endpoint answers and the image is present or can be pulled
///   (a failed pull falls through, with the reason logged);</item>
/// <item>for PostgreSQL only, a throwaway cluster from the local binaries (<see cref="ThrowawayPostgres"/>);</item>
/// <item>otherwise none: <see cref="TestServer.SkipReason"/> says why, and the fixture skips its tests with it.</item>
/// </list>
/// The image of step 2 can be changed with <c>ORDERS_TEST_POSTGRES_IMAGE</c>, <c>ORDERS_TEST_SQLSERVER_IMAGE</c>,
/// <c>ORDERS_TEST_MONGODB_IMAGE</c>.
/// </summary>
public static class TestServers
{
    public const string PostgresVariable = ThrowawayPostgres.ExternalServerVariable;
    public const string SqlServerVariable = "ORDERS_TEST_SQLSERVER";
    public const string MongoDbVariable = "ORDERS_TEST_MONGODB";

    public const string PostgresImage = "postgres:15";
    public const string SqlServerImage = "mcr.microsoft.com/mssql/server:2022-latest";
    public const string MongoDbImage = "mongo:8.0";

    /// <summary>The replica set a MongoDB container runs as (a single member), so that multi-document transactions work.</summary>
    public const string MongoDbReplicaSet = "rs0";

    private static readonly ConcurrentDictionary<string, Lazy<Task<TestServer>>> Shared = new(StringComparer.Ordinal);

    static TestServers() =>
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            foreach (var server in Shared.Values.Where(s => s.IsValueCreated && s.Value.IsCompletedSuccessfully))
            {
                server.Value.Result.DisposeAsync().AsTask().GetAwaiter().GetResult();
            }
        };

    /// <summary>
    /// The MongoDB server for this test process: <c>ORDERS_TEST_MONGODB</c>, else a Testcontainers.MongoDb container
    /// (<see cref="MongoDbImage"/>, a single-member replica set <see cref="MongoDbReplicaSet"/>), else none.
    /// Use it like this in a fixture:
    /// <code>
    /// var server = await TestServers.MongoDbAsync();
    /// if (server.SkipReason is { } reason) { /* skip every test with reason */ }
    /// var client = new MongoClient(server.ConnectionString);   // give each fixture a database of its own
    /// </code>
    /// The first call selects (and starts a container if that is the choice); later calls return the same server.
    /// A container stops when the test process exits. Never throws for a missing server: the reason is in SkipReason.
    /// </summary>
    public static Task<TestServer> MongoDbAsync() => SharedAsync("MongoDB", MongoDbCandidates);

    /// <summary>The SQL Server for this test process: <c>ORDERS_TEST_SQLSERVER</c>, else a Testcontainers.MsSql container, else none. Shared like <see cref="MongoDbAsync"/>.</summary>
    public static Task<TestServer> SqlServerAsync() => SharedAsync("SQL Server", SqlServerCandidates);

    /// <summary>
    /// A PostgreSQL server of the caller's own (dispose it to stop a container or cluster it started):
    /// <c>ORDERS_TEST_POSTGRES</c>, else a Testcontainers.PostgreSql container, else a throwaway cluster, else none.
    /// </summary>
    public static Task<TestServer> PostgreSqlAsync(CancellationToken cancellationToken = default) =>
        ServerSelection.SelectAsync("PostgreSQL", PostgreSqlCandidates(), cancellationToken);

    /// <param name="environment">Reads environment variables (tests pass their own); null reads the process's.</param>
    /// <param name="dockerEndpoint">The Docker endpoint; null takes the one Testcontainers finds.</param>
    public static IEnumerable<ServerCandidate> PostgreSqlCandidates(Func<string, string?>? environment = null, Uri? dockerEndpoint = null)
    {
        yield return new EnvironmentCandidate(PostgresVariable, environment);
        yield return new ContainerCandidate<PostgreSqlContainer>(Image(PostgresVariable, PostgresImage, environment), PostgreSqlContainer, c => c.GetConnectionString(), dockerEndpoint);
        yield return new LocalPostgresCandidate();
    }

    public static IEnumerable<ServerCandidate> SqlServerCandidates(Func<string, string?>? environment = null, Uri? dockerEndpoint = null)
    {
        yield return new EnvironmentCandidate(SqlServerVariable, environment);
        yield return new ContainerCandidate<MsSqlContainer>(Image(SqlServerVariable, SqlServerImage, environment), SqlServerContainer, c => c.GetConnectionString(), dockerEndpoint);
    }

    public static IEnumerable<ServerCandidate> MongoDbCandidates(Func<string, string?>? environment = null, Uri? dockerEndpoint = null)
    {
        yield return new EnvironmentCandidate(MongoDbVariable, environment);
        yield return new ContainerCandidate<MongoDbContainer>(Image(MongoDbVariable, MongoDbImage, environment), MongoDbContainer, c => c.GetConnectionString(), dockerEndpoint);
    }

    // The official image with the settings of our throwaway cluster: durable (Testcontainers turns fsync and
    // synchronous_commit off by default, which the durability tests would notice) and enough connections for
    // the switch matrix's 24 pools.
    private static PostgreSqlContainer PostgreSqlContainer(string image, Uri endpoint) =>
        new PostgreSqlBuilder(image)
            .WithDockerEndpoint(endpoint.ToString())
            .WithCommand("-c", "fsync=on", "-c", "full_page_writes=on", "-c", "synchronous_commit=on", "-c", "max_connections=1000")
            .Build();

    private static MsSqlContainer SqlServerContainer(string image, Uri endpoint) =>
        new MsSqlBuilder(image).WithDockerEndpoint(endpoint.ToString()).Build();

    private static MongoDbContainer MongoDbContainer(string image, Uri endpoint) =>
        new MongoDbBuilder(image).WithDockerEndpoint(endpoint.ToString()).WithReplicaSet(MongoDbReplicaSet).Build();

    private static string Image(string serverVariable, string image, Func<string, string?>? environment) =>
        (environment ?? Environment.GetEnvironmentVariable)(serverVariable + "_IMAGE") is { Length: > 0 } chosen ? chosen : image;

    private static Task<TestServer> SharedAsync(string kind, Func<Func<string, string?>?, Uri?, IEnumerable<ServerCandidate>> candidates) =>
        Shared.GetOrAdd(kind, _ => new Lazy<Task<TestServer>>(() => ServerSelection.SelectAsync(kind, candidates(null, null)))).Value;
}
