using System.Globalization;
using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Load.Shootout;

/// <summary>
/// MongoDB: only given servers (no mongod installs here). A database per run, dropped first. Variant 5 needs a mongod
/// started with <c>--journalCommitInterval 2</c> (a server setting): it runs on <c>--mongodb-group-commit</c>, and the
/// target checks that server's setting before the run rather than report a v5 row measured on the wrong server.
/// </summary>
public sealed class MongoTarget(string connectionString, string? groupCommitConnectionString) : StoreTarget
{
    /// <summary>What <see cref="Variant.Server"/> says for variant 5.</summary>
    public const string GroupCommitServer = "journalCommitInterval=2";

    private const int GroupCommitIntervalMilliseconds = 2;

    public override StoreKind Store => StoreKind.MongoDb;

    public override bool OwnsProcess => false;

    public override string Description =>
        $"the given MongoDB ({Host(connectionString)}); variant 5 on {(groupCommitConnectionString is null ? "no server (pass --mongodb-group-commit)" : Host(groupCommitConnectionString))}, " +
        "a mongod with --journalCommitInterval 2; a fresh database per run";

    public override Task<string> FreshDatabaseAsync(string name, CancellationToken cancellationToken) =>
        FreshAsync(connectionString, name, cancellationToken);

    public override async Task<string> FreshDatabaseAsync(string name, Variant variant, CancellationToken cancellationToken)
    {
        if (variant.Server != GroupCommitServer)
        {
            return await FreshAsync(connectionString, name, cancellationToken).ConfigureAwait(false);
        }

        var server = groupCommitConnectionString ?? throw new InvalidOperationException(
            "v5-group-commit needs a mongod started with --journalCommitInterval 2: pass --mongodb-group-commit \"mongodb://127.0.0.1:27018/?directConnection=true\" " +
            "(docker compose up -d --wait mongo-group-commit).");
        var interval = await JournalCommitIntervalAsync(server, cancellationToken).ConfigureAwait(false);
        if (interval != GroupCommitIntervalMilliseconds)
        {
            throw new InvalidOperationException(string.Create(CultureInfo.InvariantCulture,
                $"The --mongodb-group-commit server runs journalCommitInterval={interval} ms, not {GroupCommitIntervalMilliseconds}: start it with --journalCommitInterval {GroupCommitIntervalMilliseconds}."));
        }

        return await FreshAsync(server, name, cancellationToken).ConfigureAwait(false);
    }

    private static async Task<string> FreshAsync(string server, string name, CancellationToken cancellationToken)
    {
        var builder = new MongoUrlBuilder(server) { DatabaseName = "load_" + new string(name.Where(char.IsLetterOrDigit).ToArray()).ToLowerInvariant() };

        // The service's pool must cover the copies and the readers; the driver's default maximum is 100.
        builder.MaxConnectionPoolSize = Math.Max(builder.MaxConnectionPoolSize, 200);
        using (var client = new MongoClient(server))
        {
            await client.DropDatabaseAsync(builder.DatabaseName, cancellationToken).ConfigureAwait(false);
        }

        return builder.ToString();
    }

    private static async Task<int> JournalCommitIntervalAsync(string server, CancellationToken cancellationToken)
    {
        using var client = new MongoClient(server);
        var reply = await client.GetDatabase("admin")
            .RunCommandAsync<BsonDocument>(new BsonDocument { { "getParameter", 1 }, { "journalCommitInterval", 1 } }, cancellationToken: cancellationToken)
            .ConfigureAwait(false);
        return reply["journalCommitInterval"].ToInt32();
    }

    private static string Host(string uri) => string.Join(",", new MongoUrl(uri).Servers.Select(s => s.ToString()));
}
