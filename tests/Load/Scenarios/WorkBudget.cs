namespace OrderService.Load.Scenarios;

/// <summary>
/// The closed model's exact count: copies claim tickets before each iteration, and exactly
/// <see cref="Limit"/> claims succeed however many copies race, so a run does W iterations, never W+k.
/// A claim is final: an iteration that fails still used its ticket.
/// </summary>
public sealed class WorkBudget(long limit)
{
    private long _claimed;
    private long _finished;
    private int _closed;

    public long Limit { get; } = limit >= 0 ? limit : throw new ArgumentOutOfRangeException(nameof(limit));

    /// <summary>Tickets handed out so far (never more than <see cref="Limit"/>).</summary>
    public long Claimed => Math.Min(Interlocked.Read(ref _claimed), Limit);

    public long Finished => Interlocked.Read(ref _finished);

    public bool IsExhausted => Interlocked.Read(ref _claimed) >= Limit;

    /// <summary>True once <see cref="Close"/> ended the run early.</summary>
    public bool IsClosed => Volatile.Read(ref _closed) == 1;

    /// <summary>No ticket is handed out after this; iterations already claimed run to their end.</summary>
    public void Close() => Volatile.Write(ref _closed, 1);

    /// <summary>Claims the next ticket (0-based) or returns false when all <see cref="Limit"/> are taken.</summary>
    public bool TryClaim(out long ticket)
    {
        if (IsClosed)
        {
            ticket = -1;
            return false;
        }

        var claimed = Interlocked.Increment(ref _claimed);
        if (claimed > Limit)
        {
            ticket = -1;
            return false;
        }

        ticket = claimed - 1;
        return true;
    }

    public void MarkFinished() => Interlocked.Increment(ref _finished);
}
