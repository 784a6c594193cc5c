using MongoDB.Bson;
using Xunit;

namespace OrderService.Integration.Tests.Servers;

/// <summary>Which engine speaks MongoDB's protocol at ORDERS_TEST_MONGODB.</summary>
public enum MongoEngineKind
{
    /// <summary>mongod as a replica-set member, or mongos: what the MongoDB suites are written for.</summary>
    MongoDb,

    /// <summary>FerretDB on PostgreSQL with DocumentDB (docs/stores/ferretdb.md: what differs there).</summary>
    FerretDb,

    /// <summary>A standalone mongod: no transactions, no cluster time, no replica-set write concerns.</summary>
    StandaloneMongoDb,
}

/// <summary>
/// What the test server says about itself, asked once per process: buildInfo names FerretDB (a "ferretdb" section),
/// hello names a replica set (setName) or mongos (isdbgrid), and a reply carries $clusterTime only where the server
/// keeps cluster time. Tests read features from here, never from the URI: a skip names a feature the server itself
/// reported missing.
/// </summary>
public sealed record MongoEngine(MongoEngineKind Kind, string Version, bool Transactions, bool ClusterTime)
{
    private static Task<MongoEngine>? _detected;

    public static Task<MongoEngine> DetectAsync() => _detected ??= ProbeAsync();

    /// <summary>Skips the calling test when the server has no multi-document transactions, naming the feature and what said so.</summary>
    public static async Task RequireTransactionsAsync()
    {
        var engine = await DetectAsync();
        if (!engine.Transactions)
        {
            Assert.Skip($"Needs multi-document transactions, which {engine} lacks (hello names no replica set or mongos{(engine.Kind == MongoEngineKind.FerretDb ? "; FerretDB has none at all" : "")}).");
        }
    }

    /// <summary>
    /// The attempt bound a service on FerretDB runs with (docs/stores/ferretdb.md): it also bounds the driver's wait for
    /// a pooled connection and for server selection. The driver opens at most two connections at a time and each
    /// FerretDB connection starts a PostgreSQL backend, so on a loaded machine a burst of 100 writers waits seconds
    /// for its connections, where the 2 s default answers 503.
    /// </summary>
    public static readonly KeyValuePair<string, string?>[] FerretDbSettings =
    [
        new("Resilience:AttemptTimeoutSeconds", "30"),
        new("Resilience:TotalTimeoutSeconds", "60"),
    ];

    public override string ToString() => $"{Kind} {Version}";

    private static async Task<MongoEngine> ProbeAsync()
    {
        await MongoTestServer.RequireServerAsync();
        using var client = MongoTestServer.Client();
        var admin = client.GetDatabase("admin");
        var build = await admin.RunCommandAsync<BsonDocument>(new BsonDocument("buildInfo", 1));
        var hello = await admin.RunCommandAsync<BsonDocument>(new BsonDocument("hello", 1));
        var ferret = build.TryGetValue("ferretdb", out var about) && about.IsBsonDocument;
        var replicated = hello.Contains("setName") || hello.GetValue("msg", "").Equals(new BsonString("isdbgrid"));
        var kind = ferret ? MongoEngineKind.FerretDb : replicated ? MongoEngineKind.MongoDb : MongoEngineKind.StandaloneMongoDb;
        var version = ferret ? about["version"].AsString : build["version"].AsString;
        return new MongoEngine(kind, version, Transactions: replicated && !ferret, ClusterTime: hello.Contains("$clusterTime"));
    }
}
