namespace OrderService.Integration.Tests.Servers;

/// <summary>
/// The server a test fixture got, or why it got none. <see cref="ConnectionString"/> is null exactly when
/// <see cref="SkipReason"/> is not: skip with that reason, never pass silently. <see cref="Attempts"/> lists
/// every choice tried, in order, with the reason each one fell through.
/// </summary>
public sealed class TestServer : IAsyncDisposable
{
    private readonly IAsyncDisposable? _owner;

    private TestServer(string? connectionString, string? skipReason, string source, IReadOnlyList<string> attempts, IAsyncDisposable? owner)
    {
        ConnectionString = connectionString;
        SkipReason = skipReason;
        Source = source;
        Attempts = attempts;
        _owner = owner;
    }

    /// <summary>A connection string with rights to create databases; null when there is no server.</summary>
    public string? ConnectionString { get; }

    /// <summary>Why there is no server (every choice tried and why it fell through); null when there is one.</summary>
    public string? SkipReason { get; }

    /// <summary>Where the server came from, e.g. "ORDERS_TEST_MONGODB" or "Testcontainers (mongo:8.0)".</summary>
    public string Source { get; }

    public IReadOnlyList<string> Attempts { get; }

    /// <summary>What owns the server's process (a container, a throwaway cluster), or null for a server given from outside.</summary>
    public IAsyncDisposable? Owner => _owner;

    public bool IsAvailable => ConnectionString is not null;

    internal static TestServer Found(string connectionString, string source, IReadOnlyList<string> attempts, IAsyncDisposable? owner) =>
        new(connectionString, null, source, attempts, owner);

    internal static TestServer None(string kind, IReadOnlyList<string> attempts) =>
        new(null, $"No {kind} server for the tests: {string.Join("; ", attempts)}.", "none", attempts, null);

    /// <summary>Stops what this selection started (a container or a cluster); a server given from outside is left alone.</summary>
    public ValueTask DisposeAsync() => _owner?.DisposeAsync() ?? ValueTask.CompletedTask;
}
