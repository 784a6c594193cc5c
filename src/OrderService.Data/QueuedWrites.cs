namespace OrderService.Data;

/// <summary>What the group-commit writers share about a write waiting in their queue.</summary>
public static class QueuedWrites
{
    /// <summary>True when the caller gave up before a writer took it: the write is skipped, never sent.</summary>
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
