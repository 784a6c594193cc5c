using OrderService.Testing;

namespace OrderService.Integration.Tests.Servers;

/// <summary>One place a test server may come from, tried in order by <see cref="ServerSelection"/>.</summary>
public abstract class ServerCandidate
{
    /// <summary>How logs and <see cref="TestServer.Source"/> name this choice.</summary>
    public abstract string Name { get; }

    /// <summary>A started server, or why this choice cannot give one (it then falls through to the next).</summary>
    public abstract Task<CandidateResult> TryStartAsync(CancellationToken cancellationToken);
}

/// <summary>Either a connection string (and what to dispose to stop the server) or the reason there is none.</summary>
public sealed record CandidateResult(string? ConnectionString, IAsyncDisposable? Owner, string? Reason)
{
    public static CandidateResult Started(string connectionString, IAsyncDisposable? owner = null) => new(connectionString, owner, null);

    public static CandidateResult Unavailable(string reason) => new(null, null, reason);
}

/// <summary>The server named by an environment variable (ORDERS_TEST_*): a server someone runs for us, used as it is.</summary>
public sealed class EnvironmentCandidate(string variable, Func<string, string?>? environment = null) : ServerCandidate
{
    public override string Name => variable;

    public override Task<CandidateResult> TryStartAsync(CancellationToken cancellationToken)
    {
        var value = (environment ?? Environment.GetEnvironmentVariable)(variable);
        return Task.FromResult(string.IsNullOrWhiteSpace(value)
            ? CandidateResult.Unavailable($"{variable} is not set")
            : CandidateResult.Started(value));
    }
}

/// <summary>A PostgreSQL cluster of our own from the local binaries (initdb + pg_ctl), removed on dispose.</summary>
public sealed class LocalPostgresCandidate(IReadOnlyDictionary<string, string>? settings = null) : ServerCandidate
{
    public override string Name => "throwaway cluster from local PostgreSQL binaries";

    public override async Task<CandidateResult> TryStartAsync(CancellationToken cancellationToken)
    {
        if (ThrowawayPostgres.FindBinDirectory() is null)
        {
            return CandidateResult.Unavailable("no local PostgreSQL binaries (initdb, pg_ctl); scripts/test.sh installs them with apt-get");
        }

        var cluster = await ThrowawayPostgres.StartLocalAsync(settings, cancellationToken).ConfigureAwait(false);
        return CandidateResult.Started(cluster.AdminConnectionString, cluster);
    }
}
