using System.Collections.Concurrent;

namespace OrderService.Load.Shootout;

/// <summary>
/// What the clients saw during one run, for the audit: every create attempted (by idempotency key),
/// every create and every whole workflow acknowledged, and what the dirty-read probe observed.
/// Customer ids are derived from the run's tag, so the audit can find every order the run wrote.
/// </summary>
public sealed class RunLedger(string runTag, long workflows)
{
    /// <summary>
    /// Each customer (the parent entity) correlates this many of the run's orders. Tickets are dealt
    /// round-robin, so concurrent workflows belong to different customers, as they mostly would in
    /// production (and as pgbench's one customer per client does).
    /// </summary>
    public const int OrdersPerCustomer = 10;

    private long _createsAttempted;
    private long _writesHeld;
    private long _probeReads;
    private long _dirtyReads;

    public string RunTag { get; } = runTag;

    public long Workflows { get; } = workflows;

    public ConcurrentDictionary<Guid, byte> CreatesAcknowledged { get; } = new();

    public ConcurrentDictionary<Guid, byte> WorkflowsAcknowledged { get; } = new();

    public long CreatesAttempted => Interlocked.Read(ref _createsAttempted);

    public long WritesHeld => Interlocked.Read(ref _writesHeld);

    public long ProbeReads => Interlocked.Read(ref _probeReads);

    public long DirtyReads => Interlocked.Read(ref _dirtyReads);

    public long CustomerCount => Math.Max(1, (Workflows / OrdersPerCustomer) + (Workflows % OrdersPerCustomer == 0 ? 0 : 1));

    public string CustomerFor(long ticket) => $"{RunTag}-c{ticket % CustomerCount}";

    public IEnumerable<string> Customers => Enumerable.Range(0, (int)CustomerCount).Select(i => CustomerFor(i));

    public string IdempotencyKeyFor(long ticket) => $"{RunTag}-k{ticket}";

    public void CreateAttempted() => Interlocked.Increment(ref _createsAttempted);

    public void WriteHeld() => Interlocked.Increment(ref _writesHeld);

    public void ProbeRead(bool sawUncommittedPaid)
    {
        Interlocked.Increment(ref _probeReads);
        if (sawUncommittedPaid)
        {
            Interlocked.Increment(ref _dirtyReads);
        }
    }
}

/// <summary>
/// One held write in flight. Readers may read the order only while it is unsettled; the workflow settles it after
/// the rollback and waits for reads in flight to return before it pays for real, so a 'Paid' a reader saw can only
/// have been the rolled-back write: a dirty read.
/// </summary>
public sealed class HeldWriteProbe(Guid orderId)
{
    private readonly Lock _gate = new();
    private readonly TaskCompletionSource _drained = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _readsInFlight;
    private bool _settled;

    public Guid OrderId { get; } = orderId;

    public bool TryBeginRead()
    {
        lock (_gate)
        {
            if (_settled)
            {
                return false;
            }

            _readsInFlight++;
            return true;
        }
    }

    public void EndRead()
    {
        lock (_gate)
        {
            _readsInFlight--;
            if (_settled && _readsInFlight == 0)
            {
                _drained.TrySetResult();
            }
        }
    }

    /// <summary>Marks the write rolled back and returns when no read that began before it is still in flight.</summary>
    public Task SettleAsync()
    {
        lock (_gate)
        {
            _settled = true;
            if (_readsInFlight == 0)
            {
                _drained.TrySetResult();
            }
        }

        return _drained.Task;
    }
}
