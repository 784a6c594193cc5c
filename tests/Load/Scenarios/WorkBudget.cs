namespace OrderService.Load.Scenarios;

/// <summary>
/// The closed model's exact count: copies claim tickets before each iteration, and exactly
/// <see cref="Limit"/> claims succeed however many copies race, so a run does W iterations, never W+k.
/// A claim is final: an iteration that fails still used its ticket.
/// </summary>
/// <remarks>
/// The first <c>reserved</c> tickets belong to the copies by number, one each. NBomber starts a KeepConstant
/// scenario's copies at random points of its first second, so without a reservation the early copies could use up a
/// small budget before a late one started, and the late one would count an empty failure.
/// </remarks>
public sealed class WorkBudget
{
    private readonly int[] _reservationTaken;
    private long _claimed;
    private long _finished;
    private int _closed;

    public WorkBudget(long limit, int reserved = 0)
    {
        Limit = limit >= 0 ? limit : throw new ArgumentOutOfRangeException(nameof(limit));
        ArgumentOutOfRangeException.ThrowIfNegative(reserved);
        Reserved = (int)Math.Min(reserved, limit);
        _reservationTaken = new int[Reserved];
        _claimed = Reserved;
    }

    public long Limit { get; }

    /// <summary>Tickets 0 to Reserved - 1, one per copy: they count as claimed from the start.</summary>
    public int Reserved { get; }

    /// <summary>Tickets handed out or reserved so far (never more than <see cref="Limit"/>).</summary>
    public long Claimed => Math.Min(Interlocked.Read(ref _claimed), Limit);

    public long Finished => Interlocked.Read(ref _finished);

    public bool IsExhausted => Interlocked.Read(ref _claimed) >= Limit;

    /// <summary>True once <see cref="Close"/> ended the run early.</summary>
    public bool IsClosed => Volatile.Read(ref _closed) == 1;

    /// <summary>No ticket is handed out after this; iterations already claimed run to their end.</summary>
    public void Close() => Volatile.Write(ref _closed, 1);

    /// <summary>
    /// Takes copy <paramref name="copy"/>'s reserved ticket, once. After <see cref="Close"/> the reservation is given up
    /// instead (it counts as finished, so the run can drain) and this returns false.
    /// </summary>
    public bool TryTakeReserved(int copy, out long ticket)
    {
        ticket = -1;
        if (copy < 0 || copy >= Reserved || Interlocked.Exchange(ref _reservationTaken[copy], 1) == 1)
        {
            return false;
        }

        if (IsClosed)
        {
            MarkFinished();
            return false;
        }

        ticket = copy;
        return true;
    }

    /// <summary>Claims the next unreserved ticket or returns false when all <see cref="Limit"/> are taken.</summary>
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
