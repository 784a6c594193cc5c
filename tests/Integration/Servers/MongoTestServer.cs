using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Servers;

/// <summary>
/// Where the MongoDB tests find a server: <see cref="TestServers.MongoDbAsync"/> (Servers/), in its order:
/// ORDERS_TEST_MONGODB, a replica-set URI (transactions, majority and retryable writes need one), e.g.
/// <c>mongodb://127.0.0.1:27017/?directConnection=true</c> against <c>docker compose up -d --wait mongo</c>; else a
/// Testcontainers.MongoDb single-member replica set when a Docker endpoint answers and the image is present or pulls;
/// else none, and every test that needs a server reports SKIPPED with <see cref="UnavailableReason"/>, which names
/// every choice tried and why it fell through. The selection runs once per test process.
/// </summary>
public static class MongoTestServer
{
    public const string ServerVariable = TestServers.MongoDbVariable;

    private static TestServer? _selected;

    /// <summary>Selects the server (once per process; later calls return at once). Fixtures await it in InitializeAsync.</summary>
    public static async Task<TestServer> SelectAsync() => _selected = await TestServers.MongoDbAsync();

    /// <summary>The server's URI, or null when this machine has none (no mongod installs here). Call <see cref="SelectAsync"/> first.</summary>
    public static string? Uri => Selected.ConnectionString;

    public static string? UnavailableReason => Selected.SkipReason is { } reason
        ? $"{reason} To run the MongoDB suites: start Docker with the {TestServers.MongoDbImage} image present, or docker compose up -d --wait mongo, " +
          $"then {ServerVariable}=\"mongodb://127.0.0.1:27017/?directConnection=true\" (docs/stores/mongodb.md)."
        : null;

    private static TestServer Selected => _selected
        ?? throw new InvalidOperationException("The MongoDB test server is not selected yet: await MongoTestServer.SelectAsync() (or RequireServerAsync) first.");

    /// <summary>Skips the calling test, with the reason, when there is no server.</summary>
    public static async Task RequireServerAsync()
    {
        await SelectAsync();
        if (UnavailableReason is { } reason)
        {
            Assert.Skip(reason);
        }
    }

    /// <summary>The server's URI naming a database of its own (created by the first write, dropped with <see cref="DropAsync"/>).</summary>
    public static string DatabaseUri(string name, Action<MongoUrlBuilder>? configure = null)
    {
        var builder = new MongoUrlBuilder(Uri ?? throw new InvalidOperationException(UnavailableReason)) { DatabaseName = DatabaseName(name) };
        configure?.Invoke(builder);
        return builder.ToString();
    }

    /// <summary>A direct client on the test server, for planting, inspecting and dropping.</summary>
    public static MongoClient Client() => new(Uri ?? throw new InvalidOperationException(UnavailableReason));

    public static async Task DropAsync(IEnumerable<string> databaseUris)
    {
        using var client = Client();
        foreach (var uri in databaseUris)
        {
            await client.DropDatabaseAsync(new MongoUrl(uri).DatabaseName);
        }
    }

    /// <summary>The raw orders collection of the database <paramref name="databaseUri"/> names.</summary>
    public static IMongoCollection<BsonDocument> Orders(MongoClient client, string databaseUri) =>
        client.GetDatabase(new MongoUrl(databaseUri).DatabaseName).GetCollection<BsonDocument>("orders");

    /// <summary>
    /// Turns on a server fail point (mongod --setParameter enableTestCommands=1, as docker-compose.yml runs it);
    /// skips the test with the reason when the server does not allow them.
    /// </summary>
    public static async Task<IAsyncDisposable> FailPointAsync(BsonDocument mode, BsonDocument data)
    {
        var client = Client();
        var admin = client.GetDatabase("admin");
        try
        {
            await admin.RunCommandAsync<BsonDocument>(new BsonDocument { { "configureFailPoint", "failCommand" }, { "mode", mode }, { "data", data } });
        }
        catch (MongoCommandException refused) when (refused.Code is 59 or 13)
        {
            client.Dispose();
            Assert.Skip($"Needs server fail points, which the server refuses (configureFailPoint: {refused.CodeName}): FerretDB has none; "
                + "a mongod needs --setParameter enableTestCommands=1 (docker-compose.yml sets it).");
        }

        return new FailPoint(client, admin);
    }

    private static string DatabaseName(string name)
    {
        var safe = new string(name.Select(c => char.IsAsciiLetterOrDigit(c) ? c : '_').ToArray());
        return $"orders_{Guid.NewGuid():N}"[..19] + "_" + safe[..Math.Min(safe.Length, 40)];
    }

    private sealed class FailPoint(MongoClient client, IMongoDatabase admin) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            await admin.RunCommandAsync<BsonDocument>(new BsonDocument { { "configureFailPoint", "failCommand" }, { "mode", "off" } });
            client.Dispose();
        }
    }
}

/// <summary>A MongoDB that is down: a loopback port nothing listens on.</summary>
public static class MongoDown
{
    public static string ConnectionString() => $"mongodb://127.0.0.1:{FreePort.Loopback()}/orders";
}
