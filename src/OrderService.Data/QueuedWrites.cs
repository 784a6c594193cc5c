namespace OrderService.Data;

/// <summary>What the group-commit writers (SQLite's and PostgreSQL's) share about a write waiting in their queue.</summary>
public static class QueuedWrites
{
    /// <summary>
    /// True when the write's caller gave up before a writer took it: its task is cancelled here, and the writer skips it,
    /// so nothing of it is ever sent.
    /// </summary>
    public static bool Abandoned<T>(TaskCompletionSource<T> completion, CancellationToken cancellationToken)
    {
        if (!cancellationToken.IsCancellationRequested)
        {
            return false;
        }

        completion.TrySetCanceled(cancellationToken);
        return true;
    }
}
