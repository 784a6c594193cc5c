namespace OrderService.Integration.Tests.Servers;

/// <summary>
/// Tries the candidates in order and takes the first that gives a server. Each one that falls through is
/// logged (standard error, so it shows in the test command's output) with its reason, and kept in
/// <see cref="TestServer.Attempts"/>; when none gives a server the result carries every reason as its skip reason.
/// </summary>
public static class ServerSelection
{
    public static async Task<TestServer> SelectAsync(string kind, IEnumerable<ServerCandidate> candidates, CancellationToken cancellationToken = default)
    {
        var attempts = new List<string>();
        foreach (var candidate in candidates)
        {
            var result = await candidate.TryStartAsync(cancellationToken).ConfigureAwait(false);
            if (result.ConnectionString is { } connectionString)
            {
                attempts.Add($"{candidate.Name}: used");
                Log($"{kind}: using {candidate.Name}");
                return TestServer.Found(connectionString, candidate.Name, attempts, result.Owner);
            }

            attempts.Add($"{candidate.Name}: {result.Reason}");
            Log($"{kind}: {candidate.Name} falls through: {result.Reason}");
        }

        var none = TestServer.None(kind, attempts);
        Log($"{kind}: skipped. {none.SkipReason}");
        return none;
    }

    private static void Log(string line) => Console.Error.WriteLine($"[test servers] {line}");
}
